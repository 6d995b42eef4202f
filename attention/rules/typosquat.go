package rules

import "strings"

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

// SquatOf returns the popular package name imitates, or "".
func SquatOf(name, ecosystem string) string {
	known := popularNPM
	norm := func(s string) string { return strings.ToLower(s) }
	if ecosystem == "pypi" {
		known = popularPyPI
		// PyPI treats -, _ and . alike and ignores case.
		norm = func(s string) string { return strings.NewReplacer("_", "-", ".", "-").Replace(strings.ToLower(s)) }
	}
	n := norm(name)
	if len(n) < 5 || strings.HasPrefix(n, "@") || strings.HasPrefix(n, "types-") {
		return ""
	}
	for _, k := range known {
		if n == k {
			return ""
		}
	}
	digits := strings.NewReplacer("0", "o", "1", "l", "3", "e", "4", "a", "5", "s", "7", "t").Replace(n)
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
