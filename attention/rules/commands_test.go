package rules

import "testing"

func TestANSIC(t *testing.T) {
	for in, want := range map[string]string{
		`\x63\x75\x72\x6c`: "curl",
		`\143url`:          "curl",
		`a\tb\n`:           "a\tb\n",
		`\u00e9`:           "é",
		`plain`:            "plain",
	} {
		if got := ANSIC(in); got != want {
			t.Errorf("ANSIC(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDecoder(t *testing.T) {
	for _, c := range []struct {
		words []string
		want  bool
	}{
		{[]string{"base64", "-d"}, true},
		{[]string{"base64", "-di"}, true}, // bundled short flags
		{[]string{"base64"}, false},       // encodes
		{[]string{"openssl", "enc", "-d", "-aes-256-cbc"}, true},
		{[]string{"gzip", "-c"}, false},
		{[]string{"zcat"}, true},
	} {
		if got := Decoder(c.words[0], c.words); got != c.want {
			t.Errorf("Decoder(%q) = %v, want %v", c.words, got, c.want)
		}
	}
}

func TestNormPath(t *testing.T) {
	for in, want := range map[string]string{
		"./x/../y":       "y",
		`"$HOME/.npmrc"`: "~/.npmrc",
		"${HOME}/a":      "~/a",
		"/etc/passwd":    "/etc/passwd",
	} {
		if got := NormPath(in); got != want {
			t.Errorf("NormPath(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCredentialAndProfilePaths(t *testing.T) {
	for _, p := range []string{"~/.ssh/id_rsa", "$HOME/.aws/credentials", "/proc/self/environ", "~/.npmrc"} {
		if !CredentialPath(p) {
			t.Errorf("CredentialPath(%q) = false", p)
		}
	}
	for _, p := range []string{"README.md", "src/credentials.go"} {
		if CredentialPath(p) {
			t.Errorf("CredentialPath(%q) = true", p)
		}
	}
	if !ShellRCPath("~/.bashrc") || ShellRCPath("~/.ssh/authorized_keys") || !ProfilePath("/etc/cron.d/x") {
		t.Error("ShellRCPath/ProfilePath: a shell start-up file, keys and cron are told apart wrongly")
	}
}
