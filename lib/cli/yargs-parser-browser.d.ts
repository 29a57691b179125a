// Types of yargs-parser's browser entry (lib/cli/parse.ts uses it): the parser of its main entry, built without Node's libraries.
declare module 'yargs-parser/browser' {
  import yargsParser from 'yargs-parser';
  export default yargsParser;
}
