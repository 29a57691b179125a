// node:fs/promises for the built executable (scripts/build.mjs aliases it here): the same functions on the callback API, so a call does not load what Node's fs/promises loads with it (readline, watchers, streams: about a millisecond of every call).
import * as fs from 'node:fs';
import { promisify } from 'node:util';

export const constants = fs.constants;
export const access = promisify(fs.access);
export const chmod = promisify(fs.chmod);
export const copyFile = promisify(fs.copyFile);
export const lstat = promisify(fs.lstat) as typeof import('node:fs/promises').lstat;
export const mkdir = promisify(fs.mkdir) as typeof import('node:fs/promises').mkdir;
export const readdir = promisify(fs.readdir) as typeof import('node:fs/promises').readdir;
export const readFile = promisify(fs.readFile) as typeof import('node:fs/promises').readFile;
export const readlink = promisify(fs.readlink) as typeof import('node:fs/promises').readlink;
export const realpath = promisify(fs.realpath.native) as typeof import('node:fs/promises').realpath;
export const rename = promisify(fs.rename);
export const rm = promisify(fs.rm);
export const rmdir = promisify(fs.rmdir);
export const stat = promisify(fs.stat) as typeof import('node:fs/promises').stat;
export const unlink = promisify(fs.unlink);
const writeWhole = promisify(fs.writeFile);
const appendWhole = promisify(fs.appendFile);
type Written = Parameters<typeof import('node:fs/promises').writeFile>[1];
/** A string or a buffer on the callback API; an iterable or stream of pieces (which only fs/promises takes) on Node's own. */
const whole = (data: Written): data is string | NodeJS.ArrayBufferView => typeof data === 'string' || ArrayBuffer.isView(data);
export const writeFile: typeof import('node:fs/promises').writeFile = (path, data, options) => (whole(data) ? writeWhole(path as fs.PathOrFileDescriptor, data, options as fs.WriteFileOptions) : fs.promises.writeFile(path, data, options));
export const appendFile: typeof import('node:fs/promises').appendFile = (path, data, options) => (whole(data) ? appendWhole(path as fs.PathOrFileDescriptor, data, options as fs.WriteFileOptions) : fs.promises.appendFile(path, data, options));

/** A FileHandle needs Node's own fs/promises: loaded by the few commands that open one. */
export const open: typeof import('node:fs/promises').open = (...args) => fs.promises.open(...args);
