// Which error codes a command's run() can raise, found by walking its call graph with TypeScript's checker (no code is run).
import ts from 'typescript';

/** A function's own error codes and the functions it calls (or hands on as callbacks). */
interface Direct {
  codes: Set<string>;
  callees: Set<ts.Node>;
}

/**
 * The call graph of lib/ and commands/, built lazily from the checker:
 *
 * - a `new C(code, …)` (or `super(code, …)`) of a ForgeError class raises `code` when its type is a
 *   string literal or a union of them (`CODES[breach]`, `run.stopped.code`);
 * - a call goes to the declaration the checker resolves (imports, `await import()`, methods of
 *   classes, arrows held in properties); a function passed as an argument counts as called;
 * - a call of an interface's method goes to every object literal or class that implements that
 *   interface in the sources (`ctx.repo()` reaches the CLI's RunContext);
 * - a function's nested functions are part of its body.
 *
 * Every branch of a reached function counts (a helper that raises A in one mode and B in another
 * gives both to each caller). Calls through a parameter's function type or a union reach nothing.
 */
export class CallGraph {
  readonly program: ts.Program;
  private readonly checker: ts.TypeChecker;
  private readonly direct = new Map<ts.Node, Direct>();
  private readonly implementations = new Map<string, ts.Node[]>();

  constructor() {
    const configPath = ts.findConfigFile('.', ts.sys.fileExists, 'tsconfig.json')!;
    const config = ts.getParsedCommandLineOfConfigFile(configPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!;
    const roots = config.fileNames.filter((f) => /\/(lib|commands)\//.test(f));
    this.program = ts.createProgram({ rootNames: roots, options: config.options });
    this.checker = this.program.getTypeChecker();
    for (const file of this.sources()) this.indexImplementations(file);
  }

  /** The codes raised by everything `fn` reaches, each with the chain of calls that reaches its throw site. */
  raisedBy(fn: ts.Node): Map<string, string[]> {
    const codes = new Map<string, string[]>();
    const parent = new Map<ts.Node, ts.Node | null>([[fn, null]]);
    const queue = [fn];
    while (queue.length) {
      const at = queue.shift()!;
      const d = this.directOf(at);
      for (const c of d.codes) if (!codes.has(c)) codes.set(c, this.chain(at, parent));
      for (const next of d.callees) if (!parent.has(next)) parent.set(next, at), queue.push(next);
    }
    return codes;
  }

  /** `file:line name` of each function from the start to `at`. */
  private chain(at: ts.Node, parent: Map<ts.Node, ts.Node | null>): string[] {
    const steps: string[] = [];
    for (let n: ts.Node | null | undefined = at; n; n = parent.get(n)) {
      const f = n.getSourceFile();
      const line = f.getLineAndCharacterOfPosition(n.getStart()).line + 1;
      const name = (n as ts.FunctionLikeDeclaration).name?.getText() ?? (ts.isConstructorDeclaration(n) ? 'constructor' : '(arrow)');
      steps.unshift(`${f.fileName.replace(/^.*?\/(lib|commands)\//, '$1/')}:${line} ${name}`);
    }
    return steps;
  }

  /** The `run` method of the command declared in `file` (its `defineCommand({ … run(args, ctx) { … } })`). */
  runOf(file: string): ts.Node {
    const source = this.program.getSourceFile(file);
    if (!source) throw new Error(`${file} is not in the program`);
    let run: ts.Node | undefined;
    const visit = (n: ts.Node): void => {
      if (ts.isMethodDeclaration(n) && n.name.getText() === 'run' && ts.isObjectLiteralExpression(n.parent)) run ??= n;
      if (ts.isPropertyAssignment(n) && n.name.getText() === 'run' && isFunctionLike(n.initializer)) run ??= n.initializer;
      ts.forEachChild(n, visit);
    };
    visit(source);
    if (!run) throw new Error(`${file} declares no run()`);
    return run;
  }

  private sources(): ts.SourceFile[] {
    return this.program.getSourceFiles().filter((f) => !f.isDeclarationFile && !f.fileName.includes('/node_modules/'));
  }

  private directOf(fn: ts.Node): Direct {
    let d = this.direct.get(fn);
    if (d) return d;
    d = { codes: new Set(), callees: new Set() };
    this.direct.set(fn, d);
    const visit = (n: ts.Node): void => {
      // What a catch that never throws swallows is not raised: a try block's calls, a promise's before `.catch(() => …)`.
      if (ts.isTryStatement(n) && n.catchClause && !throws(n.catchClause.block)) {
        visit(n.catchClause);
        if (n.finallyBlock) visit(n.finallyBlock);
        return;
      }
      if (isSwallowingCatch(n)) {
        for (const a of n.arguments) visit(a);
        return;
      }
      if (ts.isNewExpression(n)) this.onNew(n, d!);
      else if (ts.isCallExpression(n)) this.onCall(n, d!);
      ts.forEachChild(n, visit);
    };
    const body = (fn as ts.FunctionLikeDeclaration).body;
    if (body) visit(body);
    return d;
  }

  private onNew(n: ts.NewExpression, d: Direct): void {
    const cls = this.classOf(n.expression);
    if (!cls) return;
    if (this.isForgeError(cls)) this.addCodes(n.arguments?.[0], d);
    const ctor = cls.members.find(ts.isConstructorDeclaration);
    if (ctor && this.isSource(ctor)) d.callees.add(ctor);
    for (const a of n.arguments ?? []) this.addCallback(a, d);
  }

  private onCall(n: ts.CallExpression, d: Direct): void {
    if (n.expression.kind === ts.SyntaxKind.SuperKeyword) {
      const cls = ts.findAncestor(n, ts.isClassDeclaration);
      const base = cls?.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword)?.types[0];
      const baseClass = base ? this.classOf(base.expression) : undefined;
      if (baseClass && this.isForgeError(baseClass)) this.addCodes(n.arguments[0], d);
      const ctor = baseClass?.members.find(ts.isConstructorDeclaration);
      if (ctor && this.isSource(ctor)) d.callees.add(ctor);
      return;
    }
    const decl = this.checker.getResolvedSignature(n)?.declaration;
    if (decl && !ts.isJSDocSignature(decl)) {
      if (isFunctionLike(decl) && this.isSource(decl) && !isCliMain(decl)) d.callees.add(decl);
      else if ((ts.isMethodSignature(decl) || ts.isPropertySignature(decl)) && this.isSource(decl)) {
        const owner = decl.parent;
        const key = `${this.nameOf(owner)}.${decl.name.getText()}`;
        // Running a command in-process (forge agent's tools, forge mcp) renders its errors as records: their codes are not the caller's.
        if (key !== 'CommandSpec.run') for (const impl of this.implementations.get(key) ?? []) d.callees.add(impl);
      }
    }
    for (const a of n.arguments) this.addCallback(a, d);
  }

  /** A function passed along (`.catch(unreadable)`, `map(parse)`) may be called by whatever receives it. */
  private addCallback(arg: ts.Expression, d: Direct): void {
    if (!ts.isIdentifier(arg) && !ts.isPropertyAccessExpression(arg)) return;
    let sym = this.checker.getSymbolAtLocation(arg);
    if (sym && sym.flags & ts.SymbolFlags.Alias) sym = this.checker.getAliasedSymbol(sym);
    for (const decl of sym?.declarations ?? []) if (isFunctionLike(decl) && this.isSource(decl)) d.callees.add(decl);
  }

  /** The codes an expression can hold: a string literal, or a union of a few of them. */
  private addCodes(arg: ts.Expression | undefined, d: Direct): void {
    if (!arg) return;
    const type = this.checker.getTypeAtLocation(arg);
    const parts = type.isUnion() ? type.types : [type];
    if (parts.length > 40 || !parts.every((t) => t.isStringLiteral())) return;
    for (const t of parts) d.codes.add((t as ts.StringLiteralType).value);
  }

  private classOf(expr: ts.Expression): ts.ClassDeclaration | undefined {
    let sym = this.checker.getSymbolAtLocation(expr);
    if (sym && sym.flags & ts.SymbolFlags.Alias) sym = this.checker.getAliasedSymbol(sym);
    return sym?.declarations?.find(ts.isClassDeclaration);
  }

  private isForgeError(cls: ts.ClassDeclaration): boolean {
    for (let c: ts.ClassDeclaration | undefined = cls; c; ) {
      if (c.name?.text === 'ForgeError' && c.getSourceFile().fileName.endsWith('/lib/errors.ts')) return true;
      const base: ts.ExpressionWithTypeArguments | undefined = c.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword)
        ?.types[0];
      c = base ? this.classOf(base.expression) : undefined;
    }
    return false;
  }

  private isSource(n: ts.Node): boolean {
    const f = n.getSourceFile();
    return !f.isDeclarationFile && !f.fileName.includes('/node_modules/');
  }

  private nameOf(owner: ts.Node): string {
    if (ts.isInterfaceDeclaration(owner)) return owner.name.text;
    if (ts.isTypeAliasDeclaration(owner.parent)) return owner.parent.name.text;
    return '';
  }

  /** Interface name + member → the functions that implement it: object literals typed as it, classes implementing it. */
  private indexImplementations(file: ts.SourceFile): void {
    const add = (iface: string, member: string, fn: ts.Node) => {
      const key = `${iface}.${member}`;
      this.implementations.set(key, [...(this.implementations.get(key) ?? []), fn]);
    };
    const visit = (n: ts.Node): void => {
      if (ts.isObjectLiteralExpression(n)) {
        const iface = this.interfaceName(this.checker.getContextualType(n));
        if (iface)
          for (const p of n.properties) {
            if (ts.isMethodDeclaration(p)) add(iface, p.name.getText(), p);
            else if (ts.isPropertyAssignment(p) && isFunctionLike(p.initializer)) add(iface, p.name.getText(), p.initializer);
          }
      }
      if (ts.isClassDeclaration(n))
        for (const h of n.heritageClauses ?? [])
          if (h.token === ts.SyntaxKind.ImplementsKeyword)
            for (const t of h.types)
              for (const m of n.members)
                if (ts.isMethodDeclaration(m) || ts.isPropertyDeclaration(m)) add(t.expression.getText(), m.name.getText(), m);
      ts.forEachChild(n, visit);
    };
    visit(file);
  }

  private interfaceName(type: ts.Type | undefined): string | undefined {
    const decl = (type?.aliasSymbol ?? type?.getSymbol())?.declarations?.[0];
    if (!decl || !this.isSource(decl)) return undefined;
    if (ts.isInterfaceDeclaration(decl)) return decl.name.text;
    if (ts.isTypeLiteralNode(decl) && ts.isTypeAliasDeclaration(decl.parent)) return decl.parent.name.text;
    if (ts.isTypeAliasDeclaration(decl)) return decl.name.text;
    return undefined;
  }
}

/** lib/cli/main.ts main(): what lib/cli/invoke.ts runs a command in-process with; it renders every error and returns the exit status. */
function isCliMain(decl: ts.Node): boolean {
  return ts.isFunctionDeclaration(decl) && decl.name?.text === 'main' && decl.getSourceFile().fileName.endsWith('/lib/cli/main.ts');
}

/** Whether a block throws, outside the functions it defines. */
function throws(block: ts.Node): boolean {
  let found = false;
  const visit = (n: ts.Node): void => {
    if (found || (n !== block && isFunctionLike(n))) return;
    if (ts.isThrowStatement(n)) found ||= !rethrowsOnlyOthers(n);
    else ts.forEachChild(n, visit);
  };
  visit(block);
  return found;
}

/** `if (!(err instanceof ForgeError)) throw err;`: a catch that passes on only what is not a ForgeError swallows every code. */
function rethrowsOnlyOthers(n: ts.ThrowStatement): boolean {
  const guard = ts.isBlock(n.parent) ? n.parent.parent : n.parent;
  return ts.isIfStatement(guard) && /^!\(\w+ instanceof ForgeError\)$/.test(guard.expression.getText());
}

/** `p.catch(handler)` whose handler never throws. */
function isSwallowingCatch(n: ts.Node): n is ts.CallExpression {
  if (!ts.isCallExpression(n) || !ts.isPropertyAccessExpression(n.expression) || n.expression.name.text !== 'catch') return false;
  const h = n.arguments[0];
  return !!h && (ts.isArrowFunction(h) || ts.isFunctionExpression(h)) && !throws(h.body);
}

function isFunctionLike(n: ts.Node): n is ts.FunctionLikeDeclaration {
  return (
    ts.isFunctionDeclaration(n) ||
    ts.isFunctionExpression(n) ||
    ts.isArrowFunction(n) ||
    ts.isMethodDeclaration(n) ||
    ts.isConstructorDeclaration(n) ||
    ts.isGetAccessorDeclaration(n)
  );
}
