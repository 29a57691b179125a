# The reference solution the tests apply (test/e2e/eval-suite.test.ts): 8080 wherever 3000 is the port, the 3000 ms timeout untouched.
edit() {
  node -e 'const fs = require("fs"); const [f, from, to] = process.argv.slice(1); const text = fs.readFileSync(f, "utf8"); if (!text.includes(from)) process.exit(1); fs.writeFileSync(f, text.split(from).join(to));' "$@"
}
edit config/default.json '"port": 3000' '"port": 8080' &&
  edit docker-compose.yml '"3000:3000"' '"8080:8080"' &&
  edit docker-compose.yml 'PORT: "3000"' 'PORT: "8080"' &&
  edit README.md 'localhost:3000' 'localhost:8080' &&
  edit README.md 'port 3000' 'port 8080'
