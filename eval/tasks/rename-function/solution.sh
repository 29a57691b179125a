# The reference solution the tests apply (test/e2e/eval-suite.test.ts): every fmtName becomes formatFullName.
for f in src/names.js src/user.js src/report.js test/names.test.js README.md; do
  node -e 'const fs = require("fs"); const f = process.argv[1]; fs.writeFileSync(f, fs.readFileSync(f, "utf8").replace(/\bfmtName\b/g, "formatFullName"));' "$f"
done
