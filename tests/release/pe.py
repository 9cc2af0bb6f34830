"""What a Windows executable (a PE file) says of itself, read from its bytes: its machine, its
subsystem and the DLLs it imports. The Windows artefacts' tests run on Linux too, with no objdump.

    exe = PE(path.read_bytes())      # ValueError when the bytes are not a PE file
    exe.machine == MACHINE_X86_64 and exe.subsystem == SUBSYSTEM_CONSOLE
    exe.imports                      # ["KERNEL32.dll", "msvcrt.dll", ...], as the file spells them

The layout is Microsoft's "PE Format" page (learn.microsoft.com/windows/win32/debug/pe-format):
the COFF header after "PE\\0\\0" at the offset in 0x3c, then the optional header (PE32 or PE32+),
whose data directory 1 is the import table.
"""
import struct

MACHINE_X86_64 = 0x8664  # IMAGE_FILE_MACHINE_AMD64
MACHINE_ARM64 = 0xAA64
SUBSYSTEM_CONSOLE = 3  # IMAGE_SUBSYSTEM_WINDOWS_CUI
_PE32_PLUS = 0x20B


class PE:
    def __init__(self, data):
        if data[:2] != b"MZ":
            raise ValueError("not a PE file: no MZ header")
        header = struct.unpack_from("<I", data, 0x3C)[0]
        if data[header:header + 4] != b"PE\0\0":
            raise ValueError("not a PE file: no PE signature at %#x" % header)
        self.machine, sections, _, _, _, optional_size, _ = struct.unpack_from("<HHIIIHH", data, header + 4)
        optional = header + 24
        magic = struct.unpack_from("<H", data, optional)[0]
        self.subsystem = struct.unpack_from("<H", data, optional + 68)[0]
        directories = optional + (112 if magic == _PE32_PLUS else 96)
        import_rva = struct.unpack_from("<I", data, directories + 8)[0]
        # (virtual address, virtual size, raw size, file offset) of each section
        self._sections = []
        for i in range(sections):
            _, virtual_size, address, raw_size, offset = struct.unpack_from(
                "<8sIIII", data, optional + optional_size + 40 * i)
            self._sections.append((address, virtual_size, raw_size, offset))
        self._data = data
        self.imports = []
        at = self._offset(import_rva) if import_rva else None
        while at is not None:
            descriptor = struct.unpack_from("<IIIII", data, at)
            if not any(descriptor):
                break
            self.imports.append(self._string(descriptor[3]))
            at += 20

    def _offset(self, rva):
        for address, virtual_size, raw_size, offset in self._sections:
            if address <= rva < address + max(virtual_size, raw_size):
                return rva - address + offset
        raise ValueError("address %#x is in no section" % rva)

    def _string(self, rva):
        start = self._offset(rva)
        return self._data[start:self._data.index(b"\0", start)].decode("ascii")
