// node:fs/promises for the built executable (scripts/build.mjs aliases it here): the same functions on the callback API, so a call does not load what Node's fs/promises loads with it (readline, watchers, streams: about a millisecond of every call).
import type { PathOrFileDescriptor, WriteFileOptions } from 'node:fs';
import {
  access as accessCb,
  appendFile as appendFileCb,
  chmod as chmodCb,
  constants as fsConstants,
  copyFile as copyFileCb,
  link as linkCb,
  lstat as lstatCb,
  mkdir as mkdirCb,
  mkdtemp as mkdtempCb,
  promises as fsPromises,
  readdir as readdirCb,
  readFile as readFileCb,
  readlink as readlinkCb,
  realpath as realpathCb,
  rename as renameCb,
  rm as rmCb,
  rmdir as rmdirCb,
  stat as statCb,
  unlink as unlinkCb,
  writeFile as writeFileCb,
} from 'node:fs';

/**
 * A callback function as a promise-returning one, as util.promisify makes it for these (none has
 * a custom promisified form), at a fraction of its cost: this module's top level runs in every call.
 * The callback APIs' overloads are typed by the casts below.
 */
function promised(fn: (...args: any[]) => void): (...args: any[]) => Promise<any> {
  return (...args) =>
    new Promise((resolve, reject) =>
      fn(...args, (err: NodeJS.ErrnoException | null, value: unknown) => (err ? reject(err) : resolve(value))),
    );
}

type P = typeof import('node:fs/promises');
export const constants = fsConstants;
export const access = promised(accessCb) as P['access'];
export const chmod = promised(chmodCb) as P['chmod'];
export const copyFile = promised(copyFileCb) as P['copyFile'];
export const link = promised(linkCb) as P['link'];
export const lstat = promised(lstatCb) as P['lstat'];
export const mkdir = promised(mkdirCb) as P['mkdir'];
export const mkdtemp = promised(mkdtempCb) as P['mkdtemp'];
export const readdir = promised(readdirCb) as P['readdir'];
export const readFile = promised(readFileCb) as P['readFile'];
export const readlink = promised(readlinkCb) as P['readlink'];
export const realpath = promised(realpathCb.native) as P['realpath'];
export const rename = promised(renameCb) as P['rename'];
export const rm = promised(rmCb) as P['rm'];
export const rmdir = promised(rmdirCb) as P['rmdir'];
export const stat = promised(statCb) as P['stat'];
export const unlink = promised(unlinkCb) as P['unlink'];
const writeWhole = promised(writeFileCb);
const appendWhole = promised(appendFileCb);
type Written = Parameters<P['writeFile']>[1];
/** A string or a buffer on the callback API; an iterable or stream of pieces (which only fs/promises takes) on Node's own. */
const whole = (data: Written): data is string | NodeJS.ArrayBufferView => typeof data === 'string' || ArrayBuffer.isView(data);
export const writeFile: P['writeFile'] = (path, data, options) =>
  whole(data) ? writeWhole(path as PathOrFileDescriptor, data, options as WriteFileOptions) : fsPromises.writeFile(path, data, options);
export const appendFile: P['appendFile'] = (path, data, options) =>
  whole(data) ? appendWhole(path as PathOrFileDescriptor, data, options as WriteFileOptions) : fsPromises.appendFile(path, data, options);

/** A FileHandle needs Node's own fs/promises: loaded by the few commands that open one. */
export const open: P['open'] = (...args) => fsPromises.open(...args);
