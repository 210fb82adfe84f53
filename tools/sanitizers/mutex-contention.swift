// Shows that ThreadSanitizer cannot see a contended Synchronization.Mutex on Linux (the reason
// for tsan.supp's entry): two threads each add 1 to a Mutex<Int> 200 times, holding it 200 µs
// so that the other one waits. They start while the main thread holds the mutex, so both wait
// from their first lock on, however the machine schedules them. The total is always 400 (the
// mutex works), yet TSan reports a race: the contended lock goes through the uninstrumented
// futex path.
// tools/test-sanitizers.sh builds it with -sanitize=thread and tells whether TSan still reports.
import Glibc
import Synchronization

final class Counter: Sendable {
    let value = Mutex(0)
}

let counter = Counter()
var threads: [pthread_t] = []
counter.value.withLock { _ in
    for _ in 0..<2 {
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, { context in
            let counter = Unmanaged<Counter>.fromOpaque(context!).takeUnretainedValue()
            for _ in 0..<200 {
                counter.value.withLock { total in
                    total += 1
                    usleep(200)
                }
            }
            return nil
        }, Unmanaged.passUnretained(counter).toOpaque())
        precondition(created == 0, "pthread_create failed")
        threads.append(thread)
    }
    usleep(50_000)  // both threads are now waiting for the mutex
}
for thread in threads { pthread_join(thread, nil) }
let total = counter.value.withLock { $0 }
print("total \(total) (expected 400)")
exit(total == 400 ? 0 : 1)
