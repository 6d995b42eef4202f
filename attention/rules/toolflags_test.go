package rules

import (
	"strings"
	"testing"
)

func TestToolchainFlag(t *testing.T) {
	tests := []struct {
		cgo, env string // one of them: a cgo directive's value or a flags variable's
		want     string // a part of the description, or "" for none
	}{
		// A linker plugin anywhere in a -Wl comma list, after options that
		// do nothing (the list is the linker's arguments, in order).
		{cgo: "-Wl,--push-state,-plugin=${SRCDIR}/lib/l.so,--pop-state", want: "-plugin ${SRCDIR}/lib/l.so"},
		{cgo: "-L${SRCDIR}/lib -lzstd -Wl,--compress-debug-sections=zlib,-plugin,${SRCDIR}/lib/p.so", want: "-plugin ${SRCDIR}/lib/p.so"},
		// The plugin's path in the next -Wl or -Xlinker word.
		{cgo: "-ldl -Wl,-z,now -Wl,--plugin -Wl,${SRCDIR}/testdata/s.so", want: "--plugin ${SRCDIR}/testdata/s.so"},
		{cgo: "-Xlinker -plugin -Xlinker ./p.so", want: "-plugin ./p.so"},
		{cgo: "-Xlinker -z -Xlinker execstack", want: "execstack"},
		{cgo: "-Wl,-z,execstack", want: "execstack"},
		{cgo: "-lto_library ${SRCDIR}/testdata/libLTO.dylib", want: "-lto_library"},
		{cgo: "-O2 -fpass-plugin=${SRCDIR}/testdata/opt.so", want: "-fpass-plugin"},
		{cgo: "-fplugin=${SRCDIR}/x.so", want: "-fplugin"},
		{cgo: "-Xclang -load -Xclang ./x.so", want: "-Xclang -load"},
		{cgo: "-B${SRCDIR}/../../third_party/tools", want: "-B"},
		{cgo: "-B ./bin", want: "-B./bin"},
		{cgo: "-wrapper ./w.sh,-x", want: "-wrapper"},
		{cgo: "-specs=${SRCDIR}/x.specs", want: "-specs"},
		{cgo: "@${SRCDIR}/flags.rsp", want: "@"},
		{cgo: "-Wl,@flags.rsp", want: "@"},
		{cgo: "-fuse-ld=${SRCDIR}/bin/ld", want: "-fuse-ld"},
		{cgo: "--ld-path=./ld", want: "--ld-path"},
		{cgo: "-Wl,--wrap=malloc", want: "--wrap"},
		{cgo: "-Wl,--defsym,main=evil", want: "--defsym"},
		{cgo: "-Wl,--dynamic-linker=./ld.so", want: "--dynamic-linker"},
		{cgo: "-Wl,-rpath,/tmp/lib", want: "-rpath /tmp/lib"},
		{cgo: "-Wl,-rpath=$ORIGIN/../../x", want: "-rpath"},
		// Quoted words are one word, as the go command splits them.
		{cgo: `"-Wl,-plugin=my dir/p.so"`, want: "-plugin my dir/p.so"},
		// Ordinary flags.
		{cgo: "-lm"},
		{cgo: "-O3 -flto -DZSTD_MULTITHREAD -I${SRCDIR}/include"},
		{cgo: "-L${SRCDIR}/lib -lzstd -Wl,-rpath,${SRCDIR}/lib -fuse-ld=lld"},
		{cgo: "-Wl,-Bstatic -lfoo -Wl,-Bdynamic -Wl,-Bsymbolic-functions"},
		{cgo: "-Wl,-z,now -Wl,-z,relro -Wl,--as-needed -Wl,--push-state,--no-as-needed,-lpthread,--pop-state"},
		{cgo: "-Wl,-rpath,$ORIGIN/lib -Wl,-rpath,/usr/local/lib"},
		{cgo: "-framework CoreFoundation -mthreads"},
		// The toolchain's own: gcc finds a bare plugin name in its plugin
		// directory, a bare specs name among its own specs.
		{cgo: "-fplugin=annobin -specs=nosys.specs"},
		{env: `"-Wl,-plugin=/usr/lib/gcc/x86_64-linux-gnu/13/liblto_plugin.so"`},
		{env: `"$CFLAGS -fplugin=./tools/x.so"`, want: "-fplugin=./tools/x.so"},
		{env: `-X main.version=$(VERSION) -buildid=`},
		{env: `-DREV=\"$(REV)\"`},
	}
	for _, tt := range tests {
		words := CgoWords(tt.cgo)
		if tt.env != "" {
			words = EnvFlagWords(tt.env)
		}
		got := ToolchainFlag(words)
		if tt.want == "" && got != "" || tt.want != "" && !strings.Contains(got, tt.want) {
			t.Errorf("ToolchainFlag(%q%q) = %q, want %q", tt.cgo, tt.env, got, tt.want)
		}
	}
}

// FuzzToolchainFlag feeds a diff's text to the flags reader: it must not
// panic on any value, a -Wl list ending in a comma or an option missing
// its value included.
func FuzzToolchainFlag(f *testing.F) {
	for _, s := range []string{"-Wl,", "-Xlinker", "-B", "-Wl,-plugin", "'-Wl,-z", "-Xclang -load", "@", "-z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ToolchainFlag(CgoWords(s))
		ToolchainFlag(EnvFlagWords(s))
		ScriptRun(EnvFlagWords(s))
	})
}
