package rules

import (
	"path"
	"slices"
	"strings"

	"github.com/vetter-dev/vetter/attention/provenance"
)

// Typosquats: a new dependency whose name is a letter or two away from a
// package nearly every project installs (colourama, python3-dateutil,
// crossenv, electorn) is how most malicious packages reach a build — its
// install code runs on the runner. The lists hold the names the squats
// imitate, and the near names that are real packages in their own right
// (boto and boto3, nuxt and next), so neither is taken for the other.

var popularNPM = []string{"react", "react-dom", "preact", "vue", "lodash", "lodash-es", "axios", "express", "chalk", "commander", "debug",
	"moment", "request", "webpack", "typescript", "eslint", "prettier", "jest", "mocha", "chai", "dotenv", "uuid", "yargs", "minimist",
	"glob", "globby", "rimraf", "mkdirp", "semver", "cross-env", "cross-spawn", "node-fetch", "body-parser", "cors", "jsonwebtoken",
	"bcrypt", "bcryptjs", "mongoose", "mysql", "mysql2", "mssql", "tslint", "jshint", "redis", "socket.io", "nodemon", "colors", "color", "async", "bluebird",
	"underscore", "jquery", "rxjs", "classnames", "prop-types", "styled-components", "next", "nuxt", "vite", "vitest", "rollup", "esbuild",
	"tslib", "core-js", "inquirer", "fs-extra", "node-sass", "sass", "less", "postcss", "autoprefixer", "tailwindcss", "cheerio",
	"puppeteer", "playwright", "electron", "discord.js", "ethers", "web3", "event-stream", "ua-parser-js", "coffee-script", "coffeescript",
	"babel-core", "ts-node", "tsx", "zod", "yup", "formik", "redux", "react-redux", "react-router", "react-router-dom", "graphql",
	"apollo-server", "knex", "sequelize", "prisma", "typeorm", "winston", "pino", "morgan", "helmet", "multer", "passport", "ejs",
	"handlebars", "pug", "marked", "highlight.js", "dayjs", "date-fns", "luxon", "qs", "ms", "ora", "execa", "chokidar", "nanoid",
	"husky", "lint-staged", "concurrently", "http-proxy", "ws", "superagent", "got", "ky", "undici", "sharp", "jimp", "canvas",
	"sqlite3", "better-sqlite3", "pg", "ioredis", "kafkajs", "amqplib", "aws-sdk", "firebase", "stripe", "twilio", "openai",
	"noblox.js", "@solana/web3.js", "bignumber.js", "bn.js", "tronweb", "hardhat", "truffle", "ganache", "solc"}

var popularPyPI = []string{"requests", "numpy", "pandas", "urllib3", "setuptools", "six", "python-dateutil", "pyyaml", "boto", "boto3",
	"botocore", "certifi", "idna", "charset-normalizer", "cryptography", "jinja2", "markupsafe", "click", "flask", "django", "pytest",
	"attrs", "attr", "packaging", "pip", "wheel", "colorama", "pillow", "scipy", "matplotlib", "tensorflow", "torch", "torchvision",
	"scikit-learn", "sqlalchemy", "psycopg2", "psycopg2-binary", "psycopg", "pymongo", "redis", "beautifulsoup4", "bs4", "lxml",
	"selenium", "tqdm", "rich", "pydantic", "fastapi", "uvicorn", "httpx", "aiohttp", "openai", "transformers", "paramiko",
	"pycryptodome", "pycrypto", "pyjwt", "jwt", "opencv-python", "keras", "xgboost", "lightgbm", "nltk", "gunicorn", "celery", "docutils",
	"sphinx", "black", "flake8", "mypy", "isort", "pylint", "tox", "virtualenv", "termcolor", "tabulate", "simplejson", "pytz",
	"tzdata", "toml", "tomli", "filelock", "platformdirs", "typing-extensions", "importlib-metadata", "zipp", "protobuf", "grpcio",
	"google-api-python-client", "pyasn1", "rsa", "websocket-client", "websockets", "docker", "kubernetes", "ansible", "huggingface-hub",
	"datasets", "tokenizers", "safetensors", "accelerate", "langchain", "streamlit", "gradio", "discord", "discord-py", "pysocks",
	"python-dotenv", "dotenv", "coloredlogs", "setuptools-scm", "pyopenssl", "openssl", "ujson", "orjson", "msgpack", "pyzmq",
	"jsonschema", "marshmallow", "pyserial", "serial", "pexpect", "psutil", "ipython", "jupyter", "notebook", "matplotlib-inline",
	"fabric", "invoke", "python-binance", "python-telegram-bot", "telegram", "pycord", "web3", "solana", "solders", "ccxt", "pytube",
	"yt-dlp", "youtube-dl", "pyautogui", "pynput", "keyboard", "cloudscraper", "fake-useragent"}

// SquatOf returns the popular package name imitates, or "": ecosystem is
// "npm" (a scope too), "pypi", "cargo", "gem", "nuget", "maven" (a group id),
// "go" (a module path) or "go-tool" (a module path run as a program).
func SquatOf(name, ecosystem string) string {
	lower := func(s string) string { return strings.ToLower(s) }
	// PyPI treats -, _ and . alike and ignores case; crates.io takes - and
	// _ for one another, so a squat drops or changes a letter instead
	// (rustdecimal).
	seps := func(s string) string { return strings.NewReplacer("_", "-", ".", "-").Replace(strings.ToLower(s)) }
	switch ecosystem {
	case "go":
		return goSquat(name)
	case "go-tool":
		// A module go runs or installs as a program (go run mod@v, go
		// install): also a squat when it ends in a well-known tool's name.
		mod := strings.ToLower(strings.Trim(name, `"`))
		if k := goSquat(mod); k != "" {
			return k
		}
		if host, rest, _ := strings.Cut(mod, "/"); provenance.HostIn(host, provenance.ForgeHosts) {
			owner, _, _ := strings.Cut(rest, "/")
			if k := provenance.ImitatedOwner(owner); k != "" {
				return host + "/" + k
			}
		}
		return goToolSquat(mod)
	case "maven":
		return mavenSquat(name)
	case "pypi":
		return nearName(name, popularPyPI, seps)
	case "cargo":
		return nearName(name, popularCrates, seps)
	case "gem":
		return nearName(name, popularGems, lower)
	case "conda-channel":
		return nearName(name, condaChannels, lower)
	case "nuget":
		return nearName(name, popularNuGet, lower)
	}
	if scope, _, ok := strings.Cut(name, "/"); ok && strings.HasPrefix(scope, "@") {
		// Only a scope's owner publishes under it: a squat imitates the
		// scope (@typescript_eslinter for @typescript-eslint).
		if k := nearName(scope[1:], popularScopes, seps); k != "" {
			return "@" + k
		}
		return ""
	}
	return nearName(name, popularNPM, lower)
}

// nearName returns the name in known that name imitates once both are
// normalised by norm: one letter off (two for a long name), or the same
// once digits read as letters.
func nearName(name string, known []string, norm func(string) string) string {
	n := norm(name)
	if len(n) < 5 || strings.HasPrefix(n, "@") || strings.HasPrefix(n, "types-") {
		return ""
	}
	for _, k := range known {
		if n == k {
			return ""
		}
	}
	digits := digitsRead(n)
	for _, k := range known {
		if len(k) < 4 {
			continue
		}
		// A squat keeps the name's start, which the eye reads first;
		// another first letter (tslint, eslint) or a version digit on the
		// end (mysql2) is how real packages are told apart.
		if n[0] != k[0] || strings.TrimRight(n, "0123456789") == k || strings.TrimRight(k, "0123456789") == n {
			if digits != k {
				continue
			}
		}
		d := osaDistance(n, k)
		if digits == k || d == 1 && len(k) >= 5 || d == 2 && len(k) >= 8 {
			return k
		}
	}
	return ""
}

// osaDistance is the edit distance with a swap of two neighbours counted as
// one edit (electorn, lodahs).
func osaDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := 0; j <= len(b); j++ {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			c := 1
			if a[i-1] == b[j-1] {
				c = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+c)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

// popularGo are module paths nearly every Go project requires, directly or
// not. A look-alike keeps the repository's name under an owner one or two
// letters off (sirupsen, siruspen) or the owner's name with a word added
// (boltdb-go for boltdb), or moves it to a host a letter off (githb.com).
var popularGo = []string{"github.com/stretchr/testify", "github.com/sirupsen/logrus", "github.com/spf13/cobra", "github.com/spf13/viper",
	"github.com/spf13/pflag", "github.com/spf13/afero", "github.com/gin-gonic/gin", "github.com/gorilla/mux", "github.com/gorilla/websocket",
	"github.com/gorilla/sessions", "github.com/go-chi/chi", "github.com/labstack/echo", "github.com/gofiber/fiber", "github.com/valyala/fasthttp",
	"github.com/julienschmidt/httprouter", "github.com/google/uuid", "github.com/google/go-cmp", "github.com/google/go-github",
	"github.com/google/go-containerregistry", "github.com/golang/protobuf", "github.com/golang/mock", "github.com/golang/snappy",
	"github.com/golang/glog", "github.com/golang-jwt/jwt", "github.com/dgrijalva/jwt-go", "github.com/pkg/errors", "github.com/boltdb/bolt",
	"go.etcd.io/bbolt", "go.etcd.io/etcd", "github.com/go-redis/redis", "github.com/redis/go-redis", "github.com/gomodule/redigo",
	"github.com/jackc/pgx", "github.com/lib/pq", "github.com/go-sql-driver/mysql", "github.com/mattn/go-sqlite3", "github.com/jmoiron/sqlx",
	"gorm.io/gorm", "go.mongodb.org/mongo-driver", "github.com/prometheus/client_golang", "go.uber.org/zap", "go.uber.org/atomic",
	"go.uber.org/mock", "github.com/rs/zerolog", "github.com/rs/cors", "github.com/hashicorp/consul", "github.com/hashicorp/vault",
	"github.com/hashicorp/go-multierror", "github.com/hashicorp/golang-lru", "github.com/hashicorp/hcl", "github.com/hashicorp/go-retryablehttp",
	"github.com/aws/aws-sdk-go", "github.com/aws/aws-sdk-go-v2", "cloud.google.com/go", "google.golang.org/grpc", "google.golang.org/protobuf",
	"golang.org/x/crypto", "golang.org/x/net", "golang.org/x/sys", "golang.org/x/text", "golang.org/x/oauth2", "golang.org/x/sync",
	"golang.org/x/tools", "golang.org/x/mod", "golang.org/x/term", "golang.org/x/time", "golang.org/x/exp", "gopkg.in/yaml.v2",
	"gopkg.in/yaml.v3", "github.com/go-yaml/yaml", "github.com/goccy/go-yaml", "github.com/burntsushi/toml", "github.com/pelletier/go-toml",
	"github.com/json-iterator/go", "github.com/tidwall/gjson", "github.com/urfave/cli", "github.com/fatih/color", "github.com/mattn/go-isatty",
	"github.com/mattn/go-colorable", "github.com/mitchellh/mapstructure", "github.com/mitchellh/go-homedir", "github.com/docker/docker",
	"github.com/docker/cli", "github.com/moby/moby", "github.com/containerd/containerd", "github.com/opencontainers/runc", "k8s.io/client-go",
	"k8s.io/api", "k8s.io/apimachinery", "sigs.k8s.io/controller-runtime", "sigs.k8s.io/yaml", "github.com/davecgh/go-spew",
	"github.com/go-playground/validator", "github.com/shopspring/decimal", "github.com/robfig/cron", "github.com/nats-io/nats.go",
	"github.com/segmentio/kafka-go", "github.com/shopify/sarama", "github.com/ibm/sarama", "github.com/confluentinc/confluent-kafka-go",
	"github.com/charmbracelet/bubbletea", "github.com/charmbracelet/lipgloss", "github.com/cenkalti/backoff", "github.com/gofrs/uuid",
	"github.com/satori/go.uuid", "github.com/olekukonko/tablewriter", "github.com/go-kit/kit", "github.com/grpc-ecosystem/grpc-gateway",
	"go.opentelemetry.io/otel", "github.com/getsentry/sentry-go", "github.com/ethereum/go-ethereum", "github.com/btcsuite/btcd",
	"github.com/minio/minio-go", "github.com/patrickmn/go-cache", "github.com/dgraph-io/badger", "github.com/syndtr/goleveldb",
	"github.com/klauspost/compress", "github.com/go-resty/resty", "github.com/puerkitobio/goquery", "github.com/chromedp/chromedp",
	"github.com/joho/godotenv", "github.com/kelseyhightower/envconfig", "github.com/alecthomas/kingpin", "github.com/fsnotify/fsnotify",
	"github.com/masterminds/semver", "github.com/masterminds/sprig", "github.com/go-git/go-git", "mvdan.cc/sh", "honnef.co/go/tools",
	"github.com/onsi/ginkgo", "github.com/onsi/gomega", "github.com/data-dog/go-sqlmock", "gotest.tools", "github.com/swaggo/swag",
	"github.com/99designs/gqlgen", "github.com/cespare/xxhash", "github.com/dustin/go-humanize", "github.com/samber/lo",
	"github.com/gogo/protobuf", "github.com/golangci/golangci-lint", "github.com/goreleaser/goreleaser", "github.com/vmihailenco/msgpack", "github.com/ugorji/go", "github.com/modern-go/reflect2"}

// goHosts are the hosts well-known modules live on.
var goHosts = []string{"github.com", "gitlab.com", "bitbucket.org", "golang.org", "google.golang.org", "gopkg.in", "go.uber.org",
	"go.etcd.io", "k8s.io", "sigs.k8s.io", "cloud.google.com", "go.opentelemetry.io", "go.mongodb.org", "gorm.io", "gotest.tools",
	"honnef.co", "mvdan.cc"}

// goTools are the programs CI runs straight from their module (go run
// mod@version, go install, go:generate), by the name go gives the binary,
// with the modules that publish them. A module that ends in one of these
// names under any other path (github.com/golang-tools/stringer,
// protocolbuffers-go/…/protoc-gen-go-grpc) is the squat of a tool: it keeps
// the name the line is read by and moves the code to whoever registered
// the path. Only names no other well-known project uses are listed.
var goTools = map[string][]string{
	"stringer":                {"golang.org/x/tools"},
	"goimports":               {"golang.org/x/tools"},
	"gopls":                   {"golang.org/x/tools"},
	"deadcode":                {"golang.org/x/tools"},
	"govulncheck":             {"golang.org/x/vuln"},
	"staticcheck":             {"honnef.co/go/tools"},
	"gofumpt":                 {"mvdan.cc/gofumpt"},
	"gotestsum":               {"gotest.tools/gotestsum"},
	"mockgen":                 {"go.uber.org/mock", "github.com/golang/mock"},
	"golangci-lint":           {"github.com/golangci/golangci-lint"},
	"goreleaser":              {"github.com/goreleaser/goreleaser"},
	"controller-gen":          {"sigs.k8s.io/controller-tools"},
	"protoc-gen-go":           {"google.golang.org/protobuf", "github.com/golang/protobuf"},
	"protoc-gen-go-grpc":      {"google.golang.org/grpc"},
	"protoc-gen-grpc-gateway": {"github.com/grpc-ecosystem/grpc-gateway"},
	"protoc-gen-openapiv2":    {"github.com/grpc-ecosystem/grpc-gateway"},
	"swag":                    {"github.com/swaggo/swag"},
}

// goToolSquat returns where the tool mod is named after is published
// (golang.org/x/tools/cmd/stringer), when mod ends in a well-known tool's
// name under a module that does not publish it, or "".
func goToolSquat(mod string) string {
	tool := path.Base(mod)
	if strings.HasPrefix(tool, "v") && strings.Trim(tool[1:], "0123456789") == "" {
		tool = path.Base(path.Dir(mod)) // a major-version suffix (…/v2)
	}
	homes, ok := goTools[tool]
	if !ok || !strings.Contains(mod, "/") {
		return ""
	}
	for _, h := range homes {
		if mod == h || strings.HasPrefix(mod, h+"/") {
			return ""
		}
	}
	return homes[0] + " (" + tool + ")"
}

// goSquat returns the well-known module mod imitates, or "".
func goSquat(mod string) string {
	mod = strings.ToLower(strings.Trim(mod, `"`))
	host, rest, _ := strings.Cut(mod, "/")
	if rest == "" {
		return ""
	}
	for _, k := range popularGo {
		if mod == k || strings.HasPrefix(mod, k+"/") {
			return ""
		}
	}
	// A host a letter off a module host (githb.com/…).
	if !slices.Contains(goHosts, host) {
		for _, h := range goHosts {
			if d := osaDistance(host, h); len(h) >= 6 && (d == 1 || d == 2 && len(h) >= 10) {
				return h + "/" + rest
			}
		}
		return ""
	}
	owner, repo, _ := strings.Cut(rest, "/")
	repo, _, _ = strings.Cut(repo, "/")
	for _, k := range popularGo {
		kh, krest, _ := strings.Cut(k, "/")
		ko, kr, ok := strings.Cut(krest, "/")
		if kh != host || !ok || kr != repo || ko == owner {
			continue
		}
		if d := osaDistance(owner, ko); len(ko) >= 4 && (d == 1 || d == 2 && len(ko) >= 8) || digitsRead(owner) == ko || addsWord(owner, ko) {
			return k
		}
	}
	return ""
}

// digitsRead is s with digits read as the letters they resemble.
func digitsRead(s string) string {
	return strings.NewReplacer("0", "o", "1", "l", "3", "e", "4", "a", "5", "s", "7", "t").Replace(s)
}

// addsWord reports s made of k and a word joined with -, _ or .
// (boltdb-go, go-boltdb).
func addsWord(s, k string) bool {
	if len(k) < 3 || len(s) <= len(k)+1 {
		return false
	}
	return strings.HasPrefix(s, k) && strings.ContainsRune("-_.", rune(s[len(k)])) ||
		strings.HasSuffix(s, k) && strings.ContainsRune("-_.", rune(s[len(s)-len(k)-1]))
}

// popularScopes are npm scopes whose packages nearly every project of their
// kind installs.
var popularScopes = []string{"types", "babel", "angular", "angular-devkit", "vue", "vuejs", "nestjs", "aws-sdk", "aws-cdk", "azure",
	"google-cloud", "typescript-eslint", "testing-library", "emotion", "mui", "material-ui", "reduxjs", "tanstack", "octokit", "actions",
	"sentry", "storybook", "vitejs", "rollup", "swc", "esbuild", "jest", "eslint", "prisma", "apollo", "graphql-tools", "nrwl", "nx",
	"next", "sveltejs", "fortawesome", "fontsource", "radix-ui", "headlessui", "heroicons", "chakra-ui", "floating-ui", "popperjs",
	"firebase", "supabase", "solana", "ethersproject", "openzeppelin", "polkadot", "grpc", "opentelemetry", "datadog", "stripe", "stripes",
	"vercel", "netlify", "cloudflare", "playwright", "cypress", "nuxt", "nuxtjs", "remix-run", "astrojs", "ngrx", "ionic", "capacitor",
	"react-native", "react-navigation", "expo", "shopify", "microsoft", "fluentui", "pnpm", "yarnpkg", "changesets", "commitlint",
	"semantic-release", "lerna", "oclif", "hapi", "fastify", "trpc", "tiptap", "codemirror", "lezer", "mdx-js", "docusaurus",
	"algolia", "sinonjs", "vitest", "walletconnect", "metamask", "noble", "coinbase", "ledgerhq", "tailwindcss", "hookform",
	"formatjs", "lingui", "smithy", "pulumi", "preact", "webassemblyjs", "webpack-cli", "parcel", "svgr", "tsconfig", "vue-macros",
	"iconify", "unocss", "antfu", "rushstack", "npmcli", "sindresorhus", "stdlib", "mapbox", "turf", "deck.gl", "luma.gl", "tensorflow",
	"huggingface", "langchain", "anthropic-ai", "modelcontextprotocol", "electron", "electron-forge", "tauri-apps"}

// popularCrates are crates nearly every Rust project builds, directly or not.
var popularCrates = []string{"serde", "serde-json", "serde-derive", "serde-yaml", "tokio", "tokio-util", "tokio-stream", "tokio-rustls",
	"rand", "rand-core", "clap", "clap-derive", "anyhow", "thiserror", "log", "env-logger", "regex", "regex-syntax", "syn", "quote",
	"proc-macro2", "lazy-static", "once-cell", "reqwest", "hyper", "hyperx", "hyper-tls", "futures", "futures-util", "chrono", "itertools", "libc",
	"bytes", "tracing", "tracing-subscriber", "base64", "uuid", "time", "url", "rayon", "crossbeam", "crossbeam-channel", "parking-lot",
	"smallvec", "hashbrown", "bitflags", "cfg-if", "memchr", "rust-decimal", "sha2", "sha1", "hex", "num-traits", "num-bigint", "walkdir",
	"tempfile", "toml", "toml-edit", "semver", "indexmap", "async-trait", "axum", "actix-web", "actix-rt", "sqlx", "diesel", "prost",
	"tonic", "openssl", "openssl-sys", "rustls", "ring", "criterion", "nom", "byteorder", "tower", "tower-http", "http", "mio", "socket2",
	"aho-corasick", "getrandom", "unicode-width", "ahash", "dashmap", "bincode", "csv", "image", "glob", "dirs", "which", "colored",
	"indicatif", "structopt", "pin-project", "num-cpus", "wasm-bindgen", "js-sys", "web-sys", "winapi", "windows-sys", "nix",
	"jsonwebtoken", "hmac", "flate2", "zip", "libloading", "ethers", "solana-sdk", "solana-program", "borsh", "anchor-lang", "postgres",
	"tokio-postgres", "redis", "mongodb", "rusqlite", "warp", "rocket", "tera", "handlebars", "askama", "native-tls", "proptest",
	"quickcheck", "insta", "mockall", "pretty-assertions", "approx", "ndarray", "nalgebra", "polars", "arrow", "ordered-float",
	"strum", "derive-more", "humantime", "crossterm", "ratatui", "tui", "termcolor", "console", "dialoguer", "ctrlc", "signal-hook",
	"sysinfo", "num", "bumpalo", "arrayvec", "either", "fnv", "petgraph", "rustc-hash", "blake3", "sha3", "ed25519-dalek",
	"curve25519-dalek", "k256", "secp256k1", "aes-gcm", "chacha20poly1305", "argon2", "bcrypt", "tokio-tungstenite", "tungstenite",
	"async-std", "smol", "crossbeam-utils", "tracing-core", "env-filter", "config", "dotenv", "dotenvy", "reqwest-middleware"}

// popularMaven are Maven group ids nearly every JVM project resolves.
var popularMaven = []string{"org.springframework", "com.fasterxml.jackson", "com.google.guava", "com.google.code.gson",
	"com.google.protobuf", "org.apache.commons", "org.apache.logging.log4j", "org.apache.httpcomponents", "org.apache.kafka",
	"org.apache.maven", "org.slf4j", "ch.qos.logback", "org.junit", "junit", "org.mockito", "org.assertj", "org.hamcrest",
	"org.testcontainers", "com.squareup.okhttp3", "com.squareup.retrofit2", "com.squareup.okio", "io.netty", "io.grpc",
	"org.projectlombok", "org.hibernate", "io.reactivex.rxjava3", "org.jetbrains.kotlin", "org.jetbrains.kotlinx", "com.android.tools",
	"org.yaml", "commons-io", "commons-codec", "commons-lang", "org.bouncycastle", "org.postgresql", "com.mysql", "mysql",
	"com.h2database", "org.springdoc", "io.micrometer", "io.projectreactor", "com.amazonaws", "software.amazon.awssdk", "com.azure",
	"com.microsoft.azure", "com.google.cloud", "com.google.firebase", "org.eclipse.jetty", "io.vertx", "io.quarkus", "io.micronaut",
	"org.scala-lang", "com.typesafe.akka", "com.typesafe", "io.dropwizard", "org.glassfish.jersey", "jakarta.servlet",
	"javax.servlet", "org.apache.tomcat", "com.zaxxer", "org.flywaydb", "org.liquibase", "io.jsonwebtoken", "com.auth0",
	"org.jsoup", "com.github.ben-manes.caffeine", "redis.clients", "io.lettuce", "org.mongodb", "com.datastax.oss",
	"org.elasticsearch", "co.elastic.clients", "io.opentelemetry", "io.sentry", "org.json", "com.jayway.jsonpath", "net.bytebuddy",
	"org.ow2.asm", "org.codehaus.groovy", "org.apache.groovy", "io.ktor", "com.fasterxml.woodstox", "org.xerial", "com.h3xstream"}

// mavenSquat returns the well-known group id group imitates: the same
// parts with one of them a letter off (springframevvork), or with another
// top-level domain (org.fasterxml for com.fasterxml).
func mavenSquat(group string) string {
	g := strings.Split(strings.ToLower(strings.TrimSpace(group)), ".")
	for _, k := range popularMaven {
		if strings.ToLower(group) == k || strings.HasPrefix(strings.ToLower(group), k+".") {
			return ""
		}
	}
	for _, k := range popularMaven {
		kp := strings.Split(k, ".")
		if len(kp) < 2 || len(g) < len(kp) {
			continue
		}
		diff := -1
		for i := range kp {
			if g[i] != kp[i] {
				if diff >= 0 {
					diff = -2
					break
				}
				diff = i
			}
		}
		if diff < 0 {
			continue
		}
		a, b := g[diff], kp[diff]
		if diff == 0 && slices.Contains([]string{"com", "org", "io", "net", "dev", "co"}, a) && slices.Contains([]string{"com", "org", "io", "net", "dev", "co"}, b) {
			return k
		}
		if strings.TrimRight(a, "0123456789") == strings.TrimRight(b, "0123456789") {
			continue // okhttp and okhttp3, retrofit and retrofit2
		}
		if d := osaDistance(a, b); len(b) >= 5 && (d == 1 || d == 2 && len(b) >= 8) || digitsRead(a) == b && a != b {
			return k
		}
	}
	return ""
}

// RenameImitates reports a dependency installed under another package's
// name (an npm alias "name": "npm:target@range", Cargo's name = { package =
// "target" }): every import of the name runs target's code. It imitates
// when target is no well-known package itself and either the name is one
// (react for @someone/react) or target is a letter or two off the name
// (faster_log for fast_log). An alias to the same package, to a well-known
// package or scope (@preact/compat for react), or under a name nobody else
// uses (string-width-cjs) is how projects pin or swap an implementation.
func RenameImitates(name, target, ecosystem string) bool {
	known, norm := popularNPM, strings.ToLower
	if ecosystem == "cargo" {
		known = popularCrates
		norm = func(s string) string { return strings.ReplaceAll(strings.ToLower(s), "_", "-") }
	}
	name, target = norm(name), norm(target)
	flat := strings.Replace(strings.TrimPrefix(name, "@"), "/", "-", 1)
	if name == target || flat == target || slices.Contains(known, target) {
		return false // the same package, or the scoped name's unscoped release (types-react for @types/react)
	}
	if scope, _, ok := strings.Cut(target, "/"); ok && strings.HasPrefix(scope, "@") && slices.Contains(popularScopes, scope[1:]) {
		return false
	}
	if slices.Contains(known, name) {
		return true
	}
	if strings.TrimRight(strings.TrimRight(name, "0123456789"), "-_.v") == target {
		return false // one of several versions side by side (fdir1 for fdir)
	}
	d := osaDistance(name, target)
	return len(name) >= 5 && (d == 1 || d == 2 && len(name) >= 8)
}

// popularGems are gems nearly every Ruby project bundles, and near names
// that are gems of their own (redic beside redis).
var popularGems = []string{"rails", "rake", "rspec", "rspec-core", "rspec-rails", "nokogiri", "puma", "devise", "sidekiq", "redis", "redic",
	"rack", "bundler", "activesupport", "activerecord", "actionpack", "railties", "json", "faraday", "httparty", "rest-client",
	"jwt", "bcrypt", "dotenv", "dotenv-rails", "rubocop", "rubocop-rails", "byebug", "capybara",
	"sinatra", "thor", "minitest", "webmock", "factory_bot", "factory_bot_rails", "faker", "kaminari", "pundit", "sprockets",
	"sprockets-rails", "jbuilder", "bootsnap", "mini_magick", "image_processing", "unicorn", "eventmachine", "colorize", "tzinfo",
	"i18n", "concurrent-ruby", "zeitwerk", "rubyzip", "net-ssh", "net-http", "bootstrap", "turbo-rails", "stimulus-rails",
	"importmap-rails", "strong_migrations", "rack-attack", "rack-cors", "omniauth", "doorkeeper", "grape", "sequel", "mysql2",
	"sqlite3", "multi_json", "addressable", "mime-types", "httpclient", "excon", "typhoeus", "octokit", "rainbow", "tty-prompt",
	"highline", "activeadmin", "simple_form", "paperclip", "carrierwave", "shrine", "ransack", "friendly_id", "paper_trail",
	"cancancan", "rolify", "letter_opener", "annotate", "brakeman", "bundler-audit", "simplecov", "vcr", "shoulda-matchers",
	"database_cleaner", "capistrano", "whenever", "resque", "good_job", "solid_queue", "graphql", "pagy", "view_component"}

// popularNuGet are NuGet packages nearly every .NET project restores,
// chosen where no real package sits a letter away.
var popularNuGet = []string{"newtonsoft.json", "serilog", "automapper", "dapper", "polly", "mediatr", "fluentvalidation", "xunit",
	"nunit", "nsubstitute", "fluentassertions", "npgsql", "stackexchange.redis", "restsharp", "swashbuckle.aspnetcore", "log4net",
	"castle.core", "bouncycastle.cryptography", "hangfire", "humanizer", "csvhelper", "htmlagilitypack", "nethereum.web3", "bogus",
	"benchmarkdotnet", "mongodb.driver", "rabbitmq.client", "masstransit", "mailkit", "mimekit", "identitymodel", "coverlet.collector",
	"microsoft.net.test.sdk", "system.text.json", "azure.identity", "google.protobuf", "grpc.net.client", "sharpziplib", "epplus",
	"closedxml", "quartz", "ocelot", "refit", "scrutor", "mapster", "litedb", "sqlkata", "spectre.console", "avalonia", "prism.core"}

// condaChannels are the channels conda installs most packages from.
var condaChannels = []string{"conda-forge", "bioconda", "pytorch", "pytorch-nightly", "nvidia", "defaults", "anaconda", "rapidsai",
	"rapidsai-nightly", "huggingface", "fastai", "intel", "msys2", "dglteam", "pyviz", "plotly", "bokeh", "numba", "esri", "omnia", "main"}
