# The reference solution the tests apply (test/e2e/eval-suite.test.ts): a user with no profile (undefined or null) shows their name.
node -e '
const fs = require("fs");
const f = "src/profile.js";
fs.writeFileSync(f, fs.readFileSync(f, "utf8").replace("user.profile.nickname", "user.profile?.nickname"));
'
