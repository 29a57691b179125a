// yargs, which only --help uses, as a named export: the build keeps it in a file of its own (dist/vendor/), loaded when help is rendered.
export { default as yargs } from 'yargs';
