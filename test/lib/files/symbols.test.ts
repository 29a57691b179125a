// Symbol indexes from real grammars for each listed language, and the pattern fallback.
import { test } from '../../helpers/harness';
import * as assert from 'uvu/assert';
import { extractSymbols } from '../../../lib/files/symbols';

async function symbols(path: string, text: string) {
  const r = await extractSymbols({ path, text });
  return { parser: r.parser, list: r.symbols.map((s) => `${s.kind} ${s.container ? `${s.container}.` : ''}${s.name}@${s.line}`) };
}

test('TypeScript and TSX: functions, classes, methods, interfaces, types, enums, top-level consts', async () => {
  const src =
    'export function a(x: number) {\n  return x;\n}\nexport class B extends C {\n  m(): void {}\n  static n() {}\n}\ninterface I { x: 1 }\ntype T = string;\nenum E { A }\nexport const K = 1;\nconst f = () => 1;\nfunction inner() { const local = 1; }\n';
  assert.equal(await symbols('src/a.ts', src), {
    parser: 'tree-sitter',
    list: [
      'function a@1',
      'class B@4',
      'method B.m@5',
      'method B.n@6',
      'interface I@8',
      'type T@9',
      'enum E@10',
      'const K@11',
      'const f@12',
      'function inner@13',
    ],
  });
  assert.equal((await symbols('c.tsx', 'export const App = () => <div/>;\n')).list, ['const App@1']);
});

test('JavaScript, Python, Go, Rust', async () => {
  assert.equal((await symbols('a.mjs', 'export class A {\n  go() {}\n}\nfunction* gen() {}\nexport const x = 1;\n')).list, [
    'class A@1',
    'method A.go@2',
    'function gen@4',
    'const x@5',
  ]);
  assert.equal((await symbols('a.py', 'def f(x):\n    return x\n\nclass A:\n    def m(self):\n        pass\n')).list, [
    'function f@1',
    'class A@4',
    'method A.m@5',
  ]);
  assert.equal(
    (await symbols('a.go', 'package main\nfunc F() {}\ntype S struct{}\nfunc (s *S) M() {}\ntype I interface{}\nconst K = 1\n')).list,
    ['function F@2', 'struct S@3', 'method M@4', 'interface I@5', 'const K@6'],
  );
  assert.equal(
    (
      await symbols(
        'a.rs',
        'fn f() {}\nstruct S {}\nimpl S {\n    fn m(&self) {}\n}\ntrait T {}\nenum E { A }\nmod m {}\nconst K: u8 = 1;\n',
      )
    ).list,
    ['function f@1', 'struct S@2', 'impl S@3', 'method S.m@4', 'trait T@6', 'enum E@7', 'module m@8', 'const K@9'],
  );
});

test('C, C++ and Java', async () => {
  assert.equal(
    (
      await symbols(
        'a.c',
        '#include <stdio.h>\nstruct point { int x; };\nint add(int a, int b) {\n  return a + b;\n}\nstatic char *name(void) { return 0; }\n',
      )
    ).list,
    ['struct point@2', 'function add@3', 'function name@6'],
  );
  assert.equal((await symbols('a.cpp', 'namespace ns {\nclass C {\n  void m();\n};\n}\nvoid ns::C::m() {}\n')).list, [
    'namespace ns@1',
    'class ns.C@2',
    'function ns::C::m@6',
  ]);
  assert.equal(
    (await symbols('A.java', 'package p;\npublic class A {\n  public A() {}\n  void m() {}\n}\ninterface I {}\nenum E { X }\n')).list,
    ['class A@2', 'constructor A.A@3', 'method A.m@4', 'interface I@6', 'enum E@7'],
  );
});

test('other languages fall back to line patterns, and say so', async () => {
  const r = await extractSymbols({ path: 'tool.rb', text: 'class Tool\n  def run\n  end\nend\n' });
  assert.equal(
    [r.parser, r.language, r.symbols.map((s) => `${s.kind} ${s.name}@${s.line}`)],
    ['regex', 'rb', ['class Tool@1', 'function run@2']],
  );
});

test.run();
