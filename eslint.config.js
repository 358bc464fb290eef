// Lint rules, including the import boundaries of design.md §2:
// contract <- everyone; main never imports renderer/server code; renderer never node:* or electron;
// server never electron; server/engine never fastify, the db or routes. Also: ipcMain only in
// main/ipc/, window.desktop only in renderer/platform/, and in the renderer (design.md §9) a
// feature folder never imports another one and common/ never imports a feature.
import path from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const nodeBuiltins = ['node:*', 'fs', 'path', 'os', 'child_process', 'crypto', 'http', 'https', 'net', 'url', 'worker_threads'];
const restrict = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });
const group = (group, message) => ({ group, message });
const restrictSyntax = (selectors, message) => ({ 'no-restricted-syntax': ['error', ...selectors.map((selector) => ({ selector, message }))] });

// ipcMain in main/ outside main/ipc/: imported or re-exported from electron (or electron/main), read
// as a member (electron.ipcMain, require('electron').ipcMain, electron['ipcMain']) or destructured.
const electronModule = "/^electron(\\/main)?$/";
const ipcMainUses = [
  `ImportDeclaration[source.value=${electronModule}] > ImportSpecifier[imported.name='ipcMain']`,
  `ExportNamedDeclaration[source.value=${electronModule}] > ExportSpecifier[local.name='ipcMain']`,
  "MemberExpression[computed=false][property.name='ipcMain']",
  "MemberExpression[computed=true][property.value='ipcMain']",
  "ObjectPattern > Property:matches([key.name='ipcMain'], [key.value='ipcMain'])",
];
// window.desktop in renderer/ outside renderer/platform/: window, globalThis or self (also behind a
// cast or a non-null assertion, or as globalThis.window), read by name or by string key, destructured,
// or probed with `in`. Comments and other objects' `desktop` members are not concerned.
const globalObject = '/^(window|globalThis|self)$/';
const isGlobal = (at) => `:matches([${at}.name=${globalObject}], [${at}.expression.name=${globalObject}], [${at}.property.name=${globalObject}])`;
const desktopUses = [
  `MemberExpression${isGlobal('object')}:matches([computed=false][property.name='desktop'], [computed=true][property.value='desktop'])`,
  `VariableDeclarator${isGlobal('init')} > ObjectPattern > Property:matches([key.name='desktop'], [key.value='desktop'])`,
  `BinaryExpression[operator='in'][left.value='desktop']${isGlobal('right')}`,
];

// renderer/features/<a>/ importing renderer/features/<b>/ (b ≠ a), or renderer/common/ importing
// any feature. Relative paths are resolved against the importing file, so `../bug/x.ts` and
// `../../features/bug/x.ts` are the same import; static and dynamic imports and re-exports count.
const rendererPart = (cwd, file) => {
  const rel = path.relative(cwd, file).split(path.sep).join('/');
  const feature = /^renderer\/features\/([^/]+)\//.exec(rel);
  if (feature) return { feature: feature[1] };
  return rel.startsWith('renderer/common/') ? { common: true } : null;
};
const featureBoundaries = {
  meta: {
    type: 'problem',
    schema: [],
    messages: {
      feature: 'features/<area>/ 之间不得互相引用：features/{{from}}/ 引用了 features/{{to}}/，共用部分放入 common/ 或 app/。',
      common: 'common/ 不得引用 features/：通用部分不依赖任何功能（引用了 features/{{to}}/），功能共用的部分放入 common/ 或 app/。',
    },
  },
  create(context) {
    const from = rendererPart(context.cwd, context.filename);
    if (!from) return {};
    const check = (source) => {
      if (!source || typeof source.value !== 'string' || !source.value.startsWith('.')) return;
      const to = rendererPart(context.cwd, path.resolve(path.dirname(context.filename), source.value));
      if (!to?.feature) return;
      if (from.common) context.report({ node: source, messageId: 'common', data: { to: to.feature } });
      else if (from.feature !== to.feature) context.report({ node: source, messageId: 'feature', data: { from: from.feature, to: to.feature } });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};

export default tseslint.config(
  { ignores: ['dist/**', 'release/**', 'node_modules/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  {
    files: ['contract/**'],
    rules: restrict([
      group([...nodeBuiltins, 'electron', 'electron/*'], 'contract/ 是纯 TypeScript：不得引用 Node 内置模块或 Electron。'),
      group(['**/main/**', '**/renderer/**', '**/server/**', '**/preload/**'], 'contract/ 不得引用其他层。'),
      group(['react', 'react-dom', 'fastify', 'kysely'], 'contract/ 不得引用框架。'),
    ]),
  },
  {
    files: ['renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
    rules: restrict([
      group([...nodeBuiltins, 'electron', 'electron/*'], 'renderer/ 运行在沙箱中：只能通过 platform/ 使用 window.desktop。'),
      group(['**/main/**', '**/server/**', '**/preload/**'], 'renderer/ 只能引用 contract/。'),
    ]),
  },
  {
    files: ['renderer/**'],
    plugins: { cairn: { rules: { 'feature-boundaries': featureBoundaries } } },
    rules: { 'cairn/feature-boundaries': 'error' },
  },
  {
    files: ['renderer/**'],
    ignores: ['renderer/platform/**'],
    rules: restrictSyntax(desktopUses, 'window.desktop 只能由 renderer/platform/ 读取：请使用 platform/desktop.ts 导出的函数。'),
  },
  {
    files: ['main/**'],
    rules: restrict([group(['**/renderer/**', '**/server/**'], 'main/ 通过路径启动已构建的 server，不得引用 renderer/ 或 server/ 代码。')]),
  },
  {
    files: ['main/**'],
    ignores: ['main/ipc/**'],
    rules: restrictSyntax(ipcMainUses, 'ipcMain 只能在 main/ipc/ 中使用：IPC 通道在 contract/ipc/ 中声明，由 main/ipc/ 统一注册并检查调用来源。'),
  },
  {
    files: ['preload/**'],
    rules: restrict([group(['**/main/**', '**/renderer/**', '**/server/**'], 'preload/ 只由 contract/ 构建，不含逻辑。')]),
  },
  {
    files: ['server/**'],
    rules: restrict([group(['electron', 'electron/*', '**/main/**', '**/renderer/**', '**/preload/**'], 'server/ 不得引用 Electron 或客户端代码。')]),
  },
  {
    files: ['server/engine/**'],
    rules: restrict([
      group(['electron', 'electron/*', 'fastify', '@fastify/*', 'kysely', 'better-sqlite3', 'pg', '**/db/**', '**/routes/**'], 'server/engine/ 是纯分析引擎：不得引用 Fastify、数据库或路由。'),
    ]),
  },
);
