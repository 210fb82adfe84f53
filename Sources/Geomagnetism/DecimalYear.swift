extension WorldMagneticModel {
    /// The decimal year of midnight (UTC) starting a calendar day, as the WMM software computes
    /// it: year + (day of year − 1) / days in that year. 2025-01-01 is 2025.0, 2025-07-02 is
    /// 2025.4986, 2028-12-31 is 2028.9973 (a leap year: 366 days).
    ///
    /// The field changes by at most about 0.3° of declination per year, so a day's resolution is
    /// ample for a heading reference.
    public static func decimalYear(year: Int, month: Int, day: Int) throws(GeomagneticError) -> Double {
        let isLeapYear = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let monthLengths = [31, isLeapYear ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard (1...12).contains(month), (1...monthLengths[month - 1]).contains(day) else {
            throw .invalidDate(year: year, month: month, day: day)
        }
        var dayOfYear = day
        for earlierMonth in 0..<(month - 1) { dayOfYear += monthLengths[earlierMonth] }
        return Double(year) + Double(dayOfYear - 1) / (isLeapYear ? 366 : 365)
    }
}
