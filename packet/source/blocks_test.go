package source

import (
	"bytes"
	"io"
	"testing"
)

// A log decompressed into blocks reads back as the bytes it was, at every
// offset and across block edges, and Cut keeps exactly the first bytes.
func TestReadBlocks(t *testing.T) {
	for _, size := range []int{0, 1, blockMin - 1, blockMin, blockMin + 1, 3*blockMin + 7, 2*blockMax + 5} {
		src := make([]byte, size)
		for i := range src {
			src[i] = byte(i*7 + i/251)
		}
		b, err := ReadBlocks(bytes.NewReader(src))
		if err != nil || b.Size() != int64(size) {
			t.Fatalf("size %d: read %d bytes, %v", size, b.Size(), err)
		}
		for _, off := range []int{0, 1, blockMin - 1, blockMin, size / 2, size - 1, size, size + 3} {
			if off < 0 {
				continue
			}
			p := make([]byte, 3*blockMin/2)
			n, err := b.ReadAt(p, int64(off))
			want := src[min(off, size):min(off+len(p), size)]
			if !bytes.Equal(p[:n], want) || (n < len(p)) != (err == io.EOF) {
				t.Errorf("size %d off %d: read %d bytes (%v), want %d", size, off, n, err, len(want))
			}
		}
		cut := size / 3
		b.Cut(int64(cut))
		all := make([]byte, size)
		n, _ := b.ReadAt(all, 0)
		if !bytes.Equal(all[:n], src[:cut]) {
			t.Errorf("size %d: after Cut(%d) read %d bytes", size, cut, n)
		}
	}
}
