package source

import (
	"bytes"
	"errors"
	"io"
	"sort"
)

// Blocks holds a decompressed entry in memory as a list of blocks: reading
// it into one growing slice would briefly need about twice its size, and a
// log cut at its memory cap is hundreds of mebibytes. Blocks start small
// and double up to blockMax, so a short file costs little.
type Blocks struct {
	data [][]byte
	offs []int64 // offs[i] is the offset of data[i]
	size int64
}

const (
	blockMin = 32 << 10
	blockMax = 4 << 20
)

// ReadBlocks reads r to its end (nil error) or its first error, keeping
// what it read either way.
func ReadBlocks(r io.Reader) (*Blocks, error) {
	b := &Blocks{}
	for n := blockMin; ; n = min(n*2, blockMax) {
		buf := make([]byte, n)
		k := 0
		var err error
		for k < n && err == nil {
			var m int
			m, err = r.Read(buf[k:])
			k += m
		}
		if k > 0 {
			if k < n/2 {
				buf = bytes.Clone(buf[:k]) // do not keep a mostly empty block
			}
			b.data = append(b.data, buf[:k])
			b.offs = append(b.offs, b.size)
			b.size += int64(k)
		}
		switch {
		case err == io.EOF:
			return b, nil
		case err != nil:
			return b, err
		}
	}
}

// Size is how many bytes the blocks hold.
func (b *Blocks) Size() int64 { return b.size }

// Cut drops everything after size bytes.
func (b *Blocks) Cut(size int64) {
	for len(b.data) > 0 && b.offs[len(b.offs)-1] >= size {
		b.data, b.offs = b.data[:len(b.data)-1], b.offs[:len(b.offs)-1]
	}
	if i := len(b.data) - 1; i >= 0 {
		b.data[i] = b.data[i][:min(int64(len(b.data[i])), size-b.offs[i])]
	}
	b.size = min(b.size, size)
}

// ReadAt reads from the blocks as from one slice.
func (b *Blocks) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errors.New("reading a log held in memory: negative offset")
	}
	if off >= b.size {
		return 0, io.EOF
	}
	i := sort.Search(len(b.offs), func(i int) bool { return b.offs[i] > off }) - 1
	n := 0
	for ; i >= 0 && i < len(b.data) && n < len(p); i++ {
		k := copy(p[n:], b.data[i][off+int64(n)-b.offs[i]:])
		n += k
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}
