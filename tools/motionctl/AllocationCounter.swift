import ArgumentParser
import Chips
import FixedPoint
import Foundation
import Glibc
import MotionAlgorithms
import MotionEngine
import Recordings
import Synchronization

/// Counts every heap allocation in the process once `install()` has run: it points the
/// malloc, calloc, realloc, memalign, aligned_alloc and posix_memalign slots of every loaded
/// object's global offset table (libswiftCore's, Foundation's, libstdc++'s, motionctl's own)
/// at counting wrappers that call glibc's. No LD_PRELOAD and no change to any other command:
/// only `bench` installs it. glibc has no allocation counter, and `mallinfo2()` shows bytes in
/// use, which an allocation freed within the sample leaves unchanged. Not counted: glibc's
/// calls to its own malloc from inside libc (none on the stages' path). 64-bit x86_64 and
/// aarch64 only; elsewhere `isInstalled` stays false and the table says n/a.
enum AllocationCounter {
    static var count: Int { allocationCount.load(ordering: .relaxed) }
    static var isInstalled: Bool { installed.load(ordering: .relaxed) }

    /// Patches the loaded objects (once); returns whether any slot was patched.
    @discardableResult
    static func install() -> Bool {
        if isInstalled { return true }
        #if arch(x86_64)
        let slotTypes: [UInt32] = [UInt32(R_X86_64_JUMP_SLOT), UInt32(R_X86_64_GLOB_DAT)]
        #elseif arch(arm64)
        let slotTypes: [UInt32] = [UInt32(R_AARCH64_JUMP_SLOT), UInt32(R_AARCH64_GLOB_DAT)]
        #else
        let slotTypes: [UInt32] = []
        #endif
        let everywhere = UnsafeMutableRawPointer(bitPattern: 0)  // RTLD_DEFAULT
        guard !slotTypes.isEmpty, let debug = dlsym(everywhere, "_r_debug"),
              let malloc = dlsym(everywhere, "malloc"), let calloc = dlsym(everywhere, "calloc"),
              let realloc = dlsym(everywhere, "realloc"), let memalign = dlsym(everywhere, "memalign"),
              let alignedAlloc = dlsym(everywhere, "aligned_alloc"), let posixMemalign = dlsym(everywhere, "posix_memalign")
        else { return false }
        glibc = GlibcAllocator(malloc: unsafeBitCast(malloc, to: MallocFunction.self), calloc: unsafeBitCast(calloc, to: CallocFunction.self),
                      realloc: unsafeBitCast(realloc, to: ReallocFunction.self), memalign: unsafeBitCast(memalign, to: CallocFunction.self),
                      alignedAlloc: unsafeBitCast(alignedAlloc, to: CallocFunction.self),
                      posixMemalign: unsafeBitCast(posixMemalign, to: PosixMemalignFunction.self))
        let countingMalloc: MallocFunction = { size in
            allocationCount.add(1, ordering: .relaxed)
            return AllocationCounter.glibc!.malloc(size)
        }
        let countingCalloc: CallocFunction = { count, size in
            allocationCount.add(1, ordering: .relaxed)
            return AllocationCounter.glibc!.calloc(count, size)
        }
        let countingRealloc: ReallocFunction = { pointer, size in
            allocationCount.add(1, ordering: .relaxed)
            return AllocationCounter.glibc!.realloc(pointer, size)
        }
        let countingMemalign: CallocFunction = { alignment, size in
            allocationCount.add(1, ordering: .relaxed)
            return AllocationCounter.glibc!.memalign(alignment, size)
        }
        let countingAlignedAlloc: CallocFunction = { alignment, size in
            allocationCount.add(1, ordering: .relaxed)
            return AllocationCounter.glibc!.alignedAlloc(alignment, size)
        }
        let countingPosixMemalign: PosixMemalignFunction = { result, alignment, size in
            allocationCount.add(1, ordering: .relaxed)
            return AllocationCounter.glibc!.posixMemalign(result, alignment, size)
        }
        let wrappers: [String: UnsafeRawPointer] = [
            "malloc": unsafeBitCast(countingMalloc, to: UnsafeRawPointer.self), "calloc": unsafeBitCast(countingCalloc, to: UnsafeRawPointer.self),
            "realloc": unsafeBitCast(countingRealloc, to: UnsafeRawPointer.self), "memalign": unsafeBitCast(countingMemalign, to: UnsafeRawPointer.self),
            "aligned_alloc": unsafeBitCast(countingAlignedAlloc, to: UnsafeRawPointer.self),
            "posix_memalign": unsafeBitCast(countingPosixMemalign, to: UnsafeRawPointer.self),
        ]
        let pageMask = UInt(sysconf(Int32(_SC_PAGESIZE))) - 1
        var patched = 0
        // struct r_debug { int r_version; struct link_map *r_map; … };
        // struct link_map { ElfW(Addr) l_addr; char *l_name; ElfW(Dyn) *l_ld; struct link_map *l_next; … }
        var map = debug.load(fromByteOffset: MemoryLayout<UInt>.size, as: UnsafeRawPointer?.self)
        while let object = map {
            map = object.load(fromByteOffset: 3 * MemoryLayout<UInt>.size, as: UnsafeRawPointer?.self)
            let base = object.load(as: UInt.self)
            guard var entry = object.load(fromByteOffset: 2 * MemoryLayout<UInt>.size, as: UnsafePointer<Elf64_Dyn>?.self) else { continue }
            var symbols: UInt = 0, strings: UInt = 0, tables: [(start: UInt, bytes: UInt)] = [(0, 0), (0, 0)]
            while entry.pointee.d_tag != DT_NULL {
                let value = UInt(entry.pointee.d_un.d_ptr)
                switch entry.pointee.d_tag {
                case Int64(DT_SYMTAB): symbols = value
                case Int64(DT_STRTAB): strings = value
                case Int64(DT_JMPREL): tables[0].start = value
                case Int64(DT_PLTRELSZ): tables[0].bytes = value
                case Int64(DT_RELA): tables[1].start = value
                case Int64(DT_RELASZ): tables[1].bytes = value
                default: break
                }
                entry += 1
            }
            // The dynamic linker relocates these addresses in place, except in the vDSO.
            func address(_ value: UInt) -> UInt { value != 0 && value < base ? value + base : value }
            guard symbols != 0, strings != 0 else { continue }
            for table in tables where table.start != 0 {
                let relocations = UnsafeBufferPointer(start: UnsafePointer<Elf64_Rela>(bitPattern: address(table.start)),
                                                      count: Int(table.bytes) / MemoryLayout<Elf64_Rela>.size)
                for relocation in relocations {
                    let index = Int(relocation.r_info >> 32)
                    guard index != 0, slotTypes.contains(UInt32(truncatingIfNeeded: relocation.r_info)) else { continue }
                    let symbol = UnsafePointer<Elf64_Sym>(bitPattern: address(symbols))![index]
                    let name = String(cString: UnsafePointer<CChar>(bitPattern: address(strings) + UInt(symbol.st_name))!)
                    guard let wrapper = wrappers[name] else { continue }
                    let slot = base &+ UInt(relocation.r_offset)
                    guard mprotect(UnsafeMutableRawPointer(bitPattern: slot & ~pageMask), Int(pageMask + 1), PROT_READ | PROT_WRITE) == 0 else { continue }
                    UnsafeMutableRawPointer(bitPattern: slot)!.storeBytes(of: wrapper, as: UnsafeRawPointer.self)
                    patched += 1
                }
            }
        }
        installed.store(patched > 0, ordering: .relaxed)
        return patched > 0
    }

    typealias MallocFunction = @convention(c) (Int) -> UnsafeMutableRawPointer?
    typealias CallocFunction = @convention(c) (Int, Int) -> UnsafeMutableRawPointer?
    typealias ReallocFunction = @convention(c) (UnsafeMutableRawPointer?, Int) -> UnsafeMutableRawPointer?
    typealias PosixMemalignFunction = @convention(c) (UnsafeMutablePointer<UnsafeMutableRawPointer?>?, Int, Int) -> Int32
    struct GlibcAllocator {
        let malloc: MallocFunction, calloc: CallocFunction, realloc: ReallocFunction, memalign: CallocFunction, alignedAlloc: CallocFunction
        let posixMemalign: PosixMemalignFunction
    }
    /// glibc's functions, set once by `install()` before any slot points at a wrapper.
    nonisolated(unsafe) static var glibc: GlibcAllocator?
}

private let allocationCount = Atomic<Int>(0)
private let installed = Atomic<Bool>(false)
