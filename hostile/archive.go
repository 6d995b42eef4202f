package hostile

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"time"
)

// Top is the folder the archives' packet sits under.
const Top = "pkt"

var archTime = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

// UnsafeEntry is an archive entry that must be refused.
type UnsafeEntry struct {
	Name string
	Kind string // "file", "symlink", "hardlink", "char", "fifo"
	Link string // link target
}

// UnsafeZipEntries escape by name or are links.
var UnsafeZipEntries = []UnsafeEntry{
	{"../escape.md", "file", ""},
	{"/abs-escape.md", "file", ""},
	{Top + "/../../escape-mid.md", "file", ""},
	{`..\win-escape.md`, "file", ""},
	{"C:/drive-escape.md", "file", ""},
	{Top + "/validation/logs/link.log", "symlink", "/etc/passwd"},
	{Top + "/notes.md", "symlink", "../../secret.md"},
}

// UnsafeTarEntries add the kinds only tar can hold.
var UnsafeTarEntries = append(append([]UnsafeEntry{}, UnsafeZipEntries...),
	UnsafeEntry{Top + "/validation/logs/hard.log", "hardlink", "/etc/passwd"},
	UnsafeEntry{Top + "/validation/logs/zero.log", "char", ""},
	UnsafeEntry{Top + "/validation/logs/fifo.log", "fifo", ""},
)

// WriteEscapingZip writes the base packet under Top/ plus UnsafeZipEntries.
func WriteEscapingZip(path string) error {
	return writeZip(path, Base(), func(zw *zip.Writer) error {
		for _, e := range UnsafeZipEntries {
			hdr := &zip.FileHeader{Name: e.Name, Method: zip.Store, Modified: archTime}
			body := SecretCanary + "\n"
			if e.Kind == "symlink" {
				hdr.SetMode(fs.ModeSymlink | 0o777)
				body = e.Link
			}
			w, err := zw.CreateHeader(hdr)
			if err != nil {
				return err
			}
			if _, err := io.WriteString(w, body); err != nil {
				return err
			}
		}
		return nil
	})
}

// writeZip writes the base packet under Top/ with Deflate, then whatever
// more adds.
func writeZip(path string, base Files, more func(*zip.Writer) error) error {
	return writeBuffered(path, func(bw io.Writer) error {
		zw := zip.NewWriter(bw)
		for _, n := range base.Names() {
			w, err := zw.CreateHeader(&zip.FileHeader{Name: Top + "/" + n, Method: zip.Deflate, Modified: archTime})
			if err != nil {
				return err
			}
			if _, err := io.WriteString(w, base[n]); err != nil {
				return err
			}
		}
		if more != nil {
			if err := more(zw); err != nil {
				return fmt.Errorf("writing archive %s: %w", path, err)
			}
		}
		return zw.Close()
	})
}

// writeBuffered creates path and fills it through a 1 MiB buffer. The file
// is closed whatever happens; the first error is the one returned.
func writeBuffered(path string, fill func(io.Writer) error) error {
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(out, 1<<20)
	if err := fill(bw); err != nil {
		out.Close()
		return err
	}
	if err := bw.Flush(); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// WriteEscapingTar writes the base packet under Top/ plus UnsafeTarEntries,
// gzip-compressed when gz is set.
func WriteEscapingTar(path string, gz bool) error {
	return writeTar(path, gz, Base(), func(tw *tar.Writer) error {
		for _, e := range UnsafeTarEntries {
			hdr := &tar.Header{Name: e.Name, Mode: 0o644, ModTime: archTime, Format: tar.FormatPAX}
			body := ""
			switch e.Kind {
			case "file":
				hdr.Typeflag = tar.TypeReg
				body = SecretCanary + "\n"
				hdr.Size = int64(len(body))
			case "symlink":
				hdr.Typeflag, hdr.Linkname = tar.TypeSymlink, e.Link
			case "hardlink":
				hdr.Typeflag, hdr.Linkname = tar.TypeLink, e.Link
			case "char":
				hdr.Typeflag, hdr.Devmajor, hdr.Devminor = tar.TypeChar, 1, 5 // /dev/zero
			case "fifo":
				hdr.Typeflag = tar.TypeFifo
			}
			if err := tw.WriteHeader(hdr); err != nil {
				return err
			}
			if _, err := io.WriteString(tw, body); err != nil {
				return err
			}
		}
		return nil
	})
}

func writeTar(path string, gz bool, base Files, more func(*tar.Writer) error) error {
	return writeBuffered(path, func(bw io.Writer) error {
		w := bw
		var zw *gzip.Writer
		if gz {
			zw = gzip.NewWriter(bw)
			w = zw
		}
		tw := tar.NewWriter(w)
		if err := writeTarBase(tw, base); err != nil {
			return err
		}
		if more != nil {
			if err := more(tw); err != nil {
				return fmt.Errorf("writing archive %s: %w", path, err)
			}
		}
		if err := tw.Close(); err != nil {
			return err
		}
		if zw != nil {
			return zw.Close()
		}
		return nil
	})
}

func writeTarBase(tw *tar.Writer, base Files) error {
	for _, n := range base.Names() {
		hdr := &tar.Header{Name: Top + "/" + n, Mode: 0o644, Size: int64(len(base[n])), ModTime: archTime, Typeflag: tar.TypeReg}
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		if _, err := io.WriteString(tw, base[n]); err != nil {
			return err
		}
	}
	return nil
}

// BombLog is the packet-relative name of the bombs' expanding entry; the
// registry of the bombs names it, so vetter opens it as a log.
const BombLog = "validation/logs/bomb.log"

// bombLog names the i-th bomb of a zip holding several.
func bombLog(i int) string {
	if i == 0 {
		return BombLog
	}
	return fmt.Sprintf("validation/logs/bomb-%d.log", i)
}

// bombBase is the base packet whose registry has a run with each bomb as log.
func bombBase(n int) Files {
	f := Base()
	for i := range n {
		f["validation/registry.jsonl"] += fmt.Sprintf(`{"seq": %d, "recipe": "%02d-bomb", "status": "validated", "log": %q, "exit_code": 0}`+"\n", 3+i, 3+i, bombLog(i))
	}
	return f
}

// WriteZipBomb writes the base packet as a zip with n logs that each expand
// to size bytes of zeros (4 GiB: about 4 MiB on disk). The deflate stream
// is built by repeating one compressed mebibyte of zeros, so writing it
// costs a CRC pass, not a compression of gigabytes. Several bombs in one
// archive test that the limits hold for the archive, not only per entry.
func WriteZipBomb(path string, size int64, n int) error {
	stream, crc, err := zeroDeflate(nil, size)
	if err != nil {
		return err
	}
	return writeZip(path, bombBase(n), func(zw *zip.Writer) error {
		for i := range n {
			raw, err := zw.CreateRaw(&zip.FileHeader{
				Name: Top + "/" + bombLog(i), Method: zip.Deflate, Modified: archTime,
				CRC32: crc, CompressedSize64: uint64(stream.Len()), UncompressedSize64: uint64(size),
			})
			if err != nil {
				return err
			}
			if _, err := raw.Write(stream.Bytes()); err != nil {
				return err
			}
		}
		return nil
	})
}

// WriteTgzBomb writes the base packet as a .tar.gz whose last entry,
// BombLog, is size bytes of zeros.
func WriteTgzBomb(path string, size int64) error {
	var prefix bytes.Buffer
	tw := tar.NewWriter(&prefix)
	if err := writeTarBase(tw, bombBase(1)); err != nil {
		return err
	}
	if err := tw.WriteHeader(&tar.Header{Name: Top + "/" + BombLog, Mode: 0o644, Size: size, ModTime: archTime, Typeflag: tar.TypeReg}); err != nil {
		return err
	}
	// The header is in prefix now (Flush would complain that the entry's
	// data is missing). The entry's data, its padding and the two end blocks are all zeros.
	zeros := (size+511)/512*512 + 1024
	stream, crc, err := zeroDeflate(prefix.Bytes(), zeros)
	if err != nil {
		return err
	}
	var out bytes.Buffer
	out.Write([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff}) // gzip header: deflate, no name, unknown OS
	stream.WriteTo(&out)
	var trailer [8]byte
	binary.LittleEndian.PutUint32(trailer[:4], crc)
	binary.LittleEndian.PutUint32(trailer[4:], uint32(int64(prefix.Len())+zeros))
	out.Write(trailer[:])
	return os.WriteFile(path, out.Bytes(), 0o644)
}

// zeroDeflate returns a raw deflate stream of prefix followed by n zero
// bytes, and the CRC-32 of that whole input. One mebibyte of zeros is
// compressed after the window is all zeros and flushed to a byte boundary;
// that block decodes the same wherever the window is zeros, so it is
// repeated.
func zeroDeflate(prefix []byte, n int64) (*bytes.Buffer, uint32, error) {
	const chunk = 1 << 20
	zero := make([]byte, chunk)
	var out, blk bytes.Buffer
	fw, err := flate.NewWriter(&out, flate.BestCompression)
	if err != nil {
		return nil, 0, err
	}
	crc := crc32.ChecksumIEEE(prefix)
	fw.Write(prefix)
	// Fill the window with zeros so the repeated block never reaches back
	// into the prefix.
	lead := min(n, 64<<10)
	fw.Write(zero[:lead])
	crc = crc32.Update(crc, crc32.IEEETable, zero[:lead])
	n -= lead
	if err := fw.Flush(); err != nil {
		return nil, 0, err
	}
	if n >= chunk {
		// A writer primed with zeros emits a block that refers back into
		// the window, as every block after the lead may.
		fw, _ = flate.NewWriterDict(&blk, flate.BestCompression, zero[:32<<10])
		fw.Write(zero)
		if err := fw.Flush(); err != nil {
			return nil, 0, err
		}
		block := blk.Bytes()
		for ; n >= chunk; n -= chunk {
			out.Write(block)
			crc = crc32.Update(crc, crc32.IEEETable, zero)
		}
		blk.Reset()
	}
	// The rest, and the final block, from a writer primed the same way.
	fw, _ = flate.NewWriterDict(&blk, flate.BestCompression, zero[:32<<10])
	fw.Write(zero[:n])
	crc = crc32.Update(crc, crc32.IEEETable, zero[:n])
	if err := fw.Close(); err != nil {
		return nil, 0, err
	}
	out.Write(blk.Bytes())
	return &out, crc, nil
}

// WriteManyEntries writes the base packet as a zip (or a tar when asTar)
// followed by n one-line logs, so only the first entries fit vetter's limit.
func WriteManyEntries(path string, n int, asTar bool) error {
	name := func(i int) string { return fmt.Sprintf("%s/validation/logs/filler-%06d.log", Top, i) }
	const body = "filler\n"
	if asTar {
		// Empty entries: a tar spends a block on each entry's data.
		return writeTar(path, false, Base(), func(tw *tar.Writer) error {
			for i := range n {
				if err := tw.WriteHeader(&tar.Header{Name: name(i), Mode: 0o644, ModTime: archTime, Typeflag: tar.TypeReg}); err != nil {
					return err
				}
			}
			return nil
		})
	}
	return writeZip(path, Base(), func(zw *zip.Writer) error {
		for i := range n {
			w, err := zw.CreateHeader(&zip.FileHeader{Name: name(i), Method: zip.Store, Modified: archTime})
			if err != nil {
				return err
			}
			io.WriteString(w, body)
		}
		return nil
	})
}
