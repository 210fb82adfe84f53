/* The C library as a C program uses it: built with
 *   gcc -Wall -Wextra -Werror recording_test.c $(pkg-config --cflags --libs opencoremotion)
 * against the installed library (tools/test-c-library.sh), run with the path of the bundled
 * recording Tests/Recordings/uci_hapt_exp01_user01_stand_walk.csv.gz and a scratch folder. */
#include <opencoremotion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static void write_file(const char *path, const char *text) {
    FILE *file = fopen(path, "w");
    if (!file || fputs(text, file) < 0 || fclose(file) != 0) {
        perror(path);
        exit(2);
    }
}

static void test_version_and_strings(void) {
    CHECK(strcmp(ocm_version_string(), OCM_VERSION_STRING) == 0, "library %s, header %s", ocm_version_string(), OCM_VERSION_STRING);
    CHECK(strcmp(ocm_status_string(OCM_STATUS_MALFORMED_RECORDING), "malformed recording") == 0, "%s", ocm_status_string(OCM_STATUS_MALFORMED_RECORDING));
    CHECK(strcmp(ocm_status_string((ocm_status)12345), "unknown status") == 0, "unknown values are named, not NULL");
    CHECK(strcmp(ocm_sensor_name(OCM_SENSOR_GYROSCOPE), "gyr") == 0, "gyroscope name");
    CHECK(ocm_sensor_name((ocm_sensor)99) == NULL, "not a sensor");
}

static void test_reads_bundled_recording(const char *path) {
    ocm_recording *recording = NULL;
    ocm_status status = ocm_recording_open(path, &recording);
    CHECK(status == OCM_STATUS_OK && recording != NULL, "open %s: %s (%s)", path, ocm_status_string(status), ocm_last_error_message());
    if (!recording) return;
    const char *license = ocm_recording_metadata(recording, "license");
    CHECK(license && strcmp(license, "CC-BY-4.0") == 0, "license %s", license ? license : "(null)");
    CHECK(ocm_recording_metadata(recording, "no-such-key") == NULL, "absent key");
    CHECK(ocm_recording_metadata(recording, NULL) == NULL, "NULL key");

    ocm_sample sample, first;
    long counts[5] = {0};
    long total = 0;
    int64_t previous_ns = INT64_MIN;
    int ordered = 1;
    while ((status = ocm_recording_next(recording, &sample)) == OCM_STATUS_OK) {
        if (total == 0) first = sample;
        if (sample.timestamp_ns < previous_ns) ordered = 0;
        previous_ns = sample.timestamp_ns;
        if ((unsigned)sample.sensor < 5) counts[sample.sensor]++;
        total++;
    }
    CHECK(status == OCM_STATUS_END, "ended with %s", ocm_status_string(status));
    CHECK(total == 10000 && counts[OCM_SENSOR_ACCELEROMETER] == 5000 && counts[OCM_SENSOR_GYROSCOPE] == 5000,
          "%ld samples (%ld acc, %ld gyr)", total, counts[0], counts[1]);
    /* First row: 140.000000,acc,11.0597,-2.6968,2.2746 */
    CHECK(total > 0 && first.timestamp_ns == 140000000000LL && first.sensor == OCM_SENSOR_ACCELEROMETER
          && first.x == 11.0597 && first.y == -2.6968 && first.z == 2.2746,
          "first sample %lld %d %.17g %.17g %.17g", (long long)first.timestamp_ns, first.sensor, first.x, first.y, first.z);
    CHECK(ordered, "timestamps never go back");
    CHECK(ocm_recording_next(recording, &sample) == OCM_STATUS_END, "END repeats");
    CHECK(ocm_recording_error_message(recording) == NULL, "no error on a good file");
    ocm_recording_close(recording);
    /* The handle is closed now: every call must refuse it without touching it. */
    CHECK(ocm_recording_next(recording, &sample) == OCM_STATUS_INVALID_HANDLE, "closed handle");
    CHECK(ocm_recording_metadata(recording, "license") == NULL, "closed handle metadata");
    ocm_recording_close(recording); /* closing twice is ignored */
}

static void test_bad_arguments_and_handles(void) {
    ocm_recording *recording = (ocm_recording *)0x1;
    ocm_sample sample;
    CHECK(ocm_recording_open(NULL, &recording) == OCM_STATUS_INVALID_ARGUMENT && recording == NULL, "NULL path");
    CHECK(ocm_recording_open("x.csv", NULL) == OCM_STATUS_INVALID_ARGUMENT, "NULL out");
    CHECK(ocm_recording_next(NULL, &sample) == OCM_STATUS_INVALID_HANDLE, "NULL handle");
    int not_a_handle = 42;
    CHECK(ocm_recording_next((ocm_recording *)&not_a_handle, &sample) == OCM_STATUS_INVALID_HANDLE, "stray pointer");
    CHECK(ocm_recording_line_number((ocm_recording *)&not_a_handle) == 0, "stray pointer line");
    CHECK(ocm_recording_error_message(NULL) == NULL, "NULL handle message");
    ocm_recording_close(NULL);
    ocm_recording_close((ocm_recording *)&not_a_handle);
    CHECK(not_a_handle == 42, "a stray pointer is never written");
}

static void test_missing_file(const char *folder) {
    char path[512];
    snprintf(path, sizeof path, "%s/does-not-exist.csv.gz", folder);
    ocm_recording *recording = NULL;
    ocm_status status = ocm_recording_open(path, &recording);
    CHECK(status == OCM_STATUS_IO_ERROR && recording == NULL, "%s", ocm_status_string(status));
    CHECK(strstr(ocm_last_error_message(), "does-not-exist.csv.gz") != NULL, "message: %s", ocm_last_error_message());
}

static void test_malformed_file(const char *folder) {
    char path[512];
    snprintf(path, sizeof path, "%s/malformed.csv", folder);
    write_file(path, "# ocm-recording 1\nt,sensor,x,y,z\n0.0,acc,0,0,9.8\n0.01,acc,0,9.8.1,0\n0.02,acc,0,0,9.8\n");
    ocm_recording *recording = NULL;
    CHECK(ocm_recording_open(path, &recording) == OCM_STATUS_OK, "%s", ocm_last_error_message());
    if (!recording) return;
    ocm_sample sample;
    CHECK(ocm_recording_next(recording, &sample) == OCM_STATUS_OK && sample.z == 9.8, "first row is good");
    ocm_status status = ocm_recording_next(recording, &sample);
    CHECK(status == OCM_STATUS_MALFORMED_RECORDING, "%s", ocm_status_string(status));
    const char *message = ocm_recording_error_message(recording);
    CHECK(message && strstr(message, "malformed.csv:4: column y: \"9.8.1\" is not a number"), "message: %s", message ? message : "(null)");
    CHECK(ocm_recording_line_number(recording) == 4, "line %lld", (long long)ocm_recording_line_number(recording));
    CHECK(ocm_recording_next(recording, &sample) == OCM_STATUS_MALFORMED_RECORDING, "the error repeats: no row after it is read");
    ocm_recording_close(recording);

    snprintf(path, sizeof path, "%s/not-a-recording.csv", folder);
    write_file(path, "time,ax,ay,az\n");
    status = ocm_recording_open(path, &recording);
    CHECK(status == OCM_STATUS_MALFORMED_RECORDING && recording == NULL, "%s", ocm_status_string(status));
    CHECK(strstr(ocm_last_error_message(), "not-a-recording.csv:1:") != NULL, "message: %s", ocm_last_error_message());
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s BUNDLED_RECORDING.csv.gz SCRATCH_FOLDER\n", argv[0]);
        return 2;
    }
    test_version_and_strings();
    test_reads_bundled_recording(argv[1]);
    test_bad_arguments_and_handles();
    test_missing_file(argv[2]);
    test_malformed_file(argv[2]);
    printf("c-library: %d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
