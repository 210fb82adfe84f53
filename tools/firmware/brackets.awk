# Counts, in QEMU's instruction trace (-singlestep -d exec,nochain: a "Trace" line per
# instruction about to run, its symbol last), the instructions between the replay's brackets
# (leaving ocm_count_begin, entering ocm_count_end): one line per bracket, its count.
# "Stopped execution of TB chain before" the instruction just traced means it did not run then
# (an exit request at its block's start; it is traced again when it runs). The output's writes
# from inside a bracket (ocm_write, with the memcpy and semihosting call it makes) are left out,
# as start-aarch64.c leaves them out of the PMU's counts.
/^Stopped/ { if (inside && !writing) n--; next }
!/^Trace/ { next }
$NF == "ocm_count_begin" { inside = 1; n = 0; writing = 0; next }
$NF == "ocm_count_end" { if (inside) { print n; inside = 0 } next }
$NF == "ocm_write" { writing = 1; next }
writing && ($NF == "memcpy" || $NF == "semihost") { next }
{ writing = 0 }
inside { n++ }
