// Lint rules, including the import boundaries of design.md §2 and §9:
// contract <- everyone; main never imports renderer/server code; renderer never node:* or electron;
// server never electron; server/engine never fastify, the db or routes; outside server/engine,
// only server/engine/index.ts (the engine's public face) is imported. Also: ipcMain only in
// main/ipc/, window.desktop only in renderer/platform/. And design.md §9's server rules: no query
// builder in server/routes/ (SQL lives in server/db/repositories/), no SQL anywhere else outside
// server/db/ either (transactions open through server/db/transaction.ts), a route area never imports
// another (what two share is a top-level server/routes/*.ts module or lives lower down), and only
// server/app.ts, which registers the areas, imports server/routes/ from outside it.
// In the renderer (design.md §9) a feature folder never imports another one and common/ never
// imports a feature.
import path from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const nodeBuiltins = ['node:*', 'fs', 'path', 'os', 'child_process', 'crypto', 'http', 'https', 'net', 'url', 'worker_threads'];
const restrict = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });
const group = (group, message) => ({ group, message });
const restrictSyntax = (selectors, message) => ({ 'no-restricted-syntax': ['error', ...selectors.map((selector) => ({ selector, message }))] });
/** One no-restricted-syntax from several: a later config object's setting would replace an earlier one's. */
const syntax = (...settings) => ({ 'no-restricted-syntax': ['error', ...settings.flatMap((r) => r['no-restricted-syntax'].slice(1))] });
const pattern = (regex, message) => ({ regex, message });

// server/: no Electron or client code anywhere in it. Every server/ block below that sets its own
// no-restricted-imports repeats this group (a later block's options replace an earlier one's).
const serverNoClient = group(['electron', 'electron/*', '**/main/**', '**/renderer/**', '**/preload/**'], 'server/ 不得引用 Electron 或客户端代码。');
// Route handlers validate, call a service or repository and shape the answer: no query builder.
const noQueries = 'server/routes/ 不写查询：请在 server/db/repositories/ 中实现，再由处理函数调用';
const routesNoKysely = group(['kysely', 'kysely/*'], noQueries);
const queryCalls = [
  "CallExpression[callee.type='MemberExpression'][callee.property.name=/^(selectFrom|selectNoFrom|updateTable|insertInto|replaceInto|mergeInto|deleteFrom|transaction|with|withRecursive|execute|executeTakeFirst|executeTakeFirstOrThrow)$/]",
  "TaggedTemplateExpression[tag.name='sql']",
  "TaggedTemplateExpression[tag.object.name='sql']",
];
// Outside server/db/ no code builds or runs SQL: no query builder, no transaction of its own (a
// service opens one through server/db/transaction.ts's inTransaction), no raw `sql`. Kysely's
// types (Kysely, Transaction) may be imported anywhere a handle is passed on.
const sqlOnlyInDb = 'SQL 只写在 server/db/repositories/ 中：请在仓储中实现后调用（事务通过 server/db/transaction.ts 的 inTransaction 开启）';
const dbQueryCalls = [
  "CallExpression[callee.type='MemberExpression'][callee.property.name=/^(selectFrom|selectNoFrom|updateTable|insertInto|replaceInto|mergeInto|deleteFrom|transaction|with|withRecursive)$/]",
  "TaggedTemplateExpression[tag.name='sql']",
  "TaggedTemplateExpression[tag.object.name='sql']",
  "CallExpression[callee.type='MemberExpression'][callee.object.name='sql']",
];
const kyselyValues = 'server/db/ 之外只可引用 kysely 的类型（import type）：SQL 只写在 server/db/repositories/ 中';
const kyselyValueImports = [
  "ImportDeclaration[source.value=/^kysely(\\x2F|$)/]:not([importKind='type']) > :matches(ImportSpecifier:not([importKind='type']), ImportDefaultSpecifier, ImportNamespaceSpecifier)",
];
const noSqlOutsideDb = syntax(restrictSyntax(dbQueryCalls, sqlOnlyInDb), restrictSyntax(kyselyValueImports, kyselyValues));
// A route area imports no other area: what two share is a top-level server/routes/*.ts module
// (shared.ts, register.ts) or lives lower down (a service, a repository, server/kb, contract/).
const otherArea = 'server/routes/ 的各区域互不引用：两个区域共用的代码放在 server/routes/ 顶层的共享模块（如 shared.ts），或下移到 server/services/、server/db/repositories/、server/kb/ 或 contract/';
// Nothing below the routes imports them: they are the top layer, registered by server/app.ts only.
const noRoutes = pattern('^(\\.\\.?/)+routes(/|$)', 'server/routes/ 只由 server/app.ts 注册：其他代码不得引用路由，共用的代码请下移到 server/services/、server/db/repositories/、server/kb/ 或 contract/');

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

// The engine's public face: any server/engine/ module but index.ts, as written from the importing
// file. Server code reaches the engine as ./engine/, ../engine/, ../../engine/…; the CLI, benchmarks,
// scripts and tests as …/server/engine/ (tests/unit/engine/ is the engine's own, not the engine).
const ENGINE_FACE = 'server/engine/ 只能通过 server/engine/index.ts 引用（引擎的公开接口）。';
const ENGINE_FROM_SERVER = String.raw`^(\./|(\.\./)+)(server/)?engine/(?!index\.ts$)`;
const ENGINE_FROM_OUTSIDE = String.raw`(^|/)server/engine/(?!index\.ts$)`;
/** Static imports and re-exports by no-restricted-imports; `import('…')` by a selector (no '/' in esquery regexes). */
const engineFace = (regex) => ({
  pattern: { regex, message: ENGINE_FACE },
  dynamic: { 'no-restricted-syntax': ['error', { selector: `ImportExpression > Literal[value=/${regex.replaceAll('/', String.raw`\x2F`)}/]`, message: ENGINE_FACE }] },
});
const engineFromServer = engineFace(ENGINE_FROM_SERVER);
const engineFromOutside = engineFace(ENGINE_FROM_OUTSIDE);

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

// Files the platform and the desktop create are owner-only (0700 folders, 0600 files: issue 13,
// item 6). node:fs's creating calls (mkdir, mkdtemp, writeFile, appendFile, createWriteStream,
// copyFile, cp, open with a creating flag) are made only by server/files/private.ts and
// main/services/private-files.ts, which set the modes: a new writer cannot forget them.
const FS_MODULES = new Set(['fs', 'node:fs', 'fs/promises', 'node:fs/promises']);
const FS_WRITERS = new Set(['mkdir', 'mkdtemp', 'writeFile', 'appendFile', 'createWriteStream', 'copyFile', 'cp'].flatMap((n) => [n, `${n}Sync`]));
const FS_OPENERS = new Set(['open', 'openSync']);
/** open()'s flags that create a file: anything but a literal read-only (or read-write, r+) flag. */
const createsFile = (flags) => flags !== undefined && !(flags.type === 'Literal' && typeof flags.value === 'string' && /^rs?\+?$/.test(flags.value));
const privateFiles = {
  meta: {
    type: 'problem',
    schema: [],
    messages: { writer: '{{name}} 会按进程 umask 创建文件或文件夹：请使用 server/files/private.ts（main/ 中为 main/services/private-files.ts）的函数，它们创建仅所有者可访问的文件（0600）与文件夹（0700）。' },
  },
  create(context) {
    const modules = new Set();
    const openers = new Set();
    const report = (node, name) => context.report({ node, messageId: 'writer', data: { name } });
    const nameOf = (node) => (node.type === 'Identifier' ? node.name : node.type === 'Literal' ? String(node.value) : null);
    return {
      ImportDeclaration(node) {
        if (!FS_MODULES.has(node.source.value)) return;
        for (const specifier of node.specifiers) {
          if (specifier.type !== 'ImportSpecifier') modules.add(specifier.local.name);
          else if (nameOf(specifier.imported) === 'promises') modules.add(specifier.local.name);
          else if (FS_WRITERS.has(nameOf(specifier.imported))) report(specifier, nameOf(specifier.imported));
          else if (FS_OPENERS.has(nameOf(specifier.imported))) openers.add(specifier.local.name);
        }
      },
      MemberExpression(node) {
        // fs.mkdirSync, fsp.writeFile, fs.promises.writeFile
        let object = node.object;
        if (object.type === 'MemberExpression' && nameOf(object.property) === 'promises') object = object.object;
        if (object.type !== 'Identifier' || !modules.has(object.name)) return;
        const name = nameOf(node.property);
        if (FS_WRITERS.has(name)) report(node, name);
        else if (FS_OPENERS.has(name) && node.parent.type === 'CallExpression' && node.parent.callee === node && createsFile(node.parent.arguments[1])) report(node, name);
      },
      CallExpression(node) {
        if (node.callee.type === 'Identifier' && openers.has(node.callee.name) && createsFile(node.arguments[1])) report(node, node.callee.name);
      },
    };
  },
};

/** This repository's own rules, one plugin object wherever they are used. */
const cairnRules = { rules: { 'feature-boundaries': featureBoundaries, 'private-files': privateFiles } };

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
      // A module past 800 lines holds more than one idea: split it by what its parts do.
      'max-lines': ['error', { max: 800 }],
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
    plugins: { cairn: cairnRules },
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
    files: ['server/db/**'],
    rules: { ...restrict([serverNoClient, noRoutes, engineFromServer.pattern]), ...engineFromServer.dynamic },
  },
  {
    // services, jobs, kb, reports, uploads, auth, licenses, plugins and the top-level modules
    files: ['server/**'],
    ignores: ['server/app.ts', 'server/routes/**', 'server/engine/**', 'server/db/**'],
    rules: { ...restrict([serverNoClient, noRoutes, engineFromServer.pattern]), ...syntax(noSqlOutsideDb, engineFromServer.dynamic) },
  },
  {
    files: ['server/app.ts'],
    rules: { ...restrict([serverNoClient, engineFromServer.pattern]), ...syntax(noSqlOutsideDb, engineFromServer.dynamic) },
  },
  {
    files: ['server/routes/*.ts'],
    rules: {
      ...restrict([serverNoClient, routesNoKysely, pattern('^\\./[^/]+/', otherArea), engineFromServer.pattern]),
      ...syntax(restrictSyntax(queryCalls, noQueries), engineFromServer.dynamic),
    },
  },
  {
    files: ['server/routes/*/**'],
    rules: {
      ...restrict([serverNoClient, routesNoKysely, pattern('^\\.\\./(?!\\.\\./)[^/]+/', otherArea), engineFromServer.pattern]),
      ...syntax(restrictSyntax(queryCalls, noQueries), engineFromServer.dynamic),
    },
  },
  {
    files: ['server/engine/**'],
    rules: restrict([
      group(['electron', 'electron/*', 'fastify', '@fastify/*', 'kysely', 'better-sqlite3', 'pg', '**/db/**', '**/routes/**'], 'server/engine/ 是纯分析引擎：不得引用 Fastify、数据库或路由。'),
    ]),
  },
  {
    files: ['server/**', 'main/**'],
    ignores: ['server/files/private.ts', 'main/services/private-files.ts'],
    plugins: { cairn: cairnRules },
    rules: { 'cairn/private-files': 'error' },
  },
  {
    files: ['cli/**', 'bench/**', 'scripts/**', 'tests/**'],
    ignores: ['tests/unit/engine/**'],
    rules: { ...restrict([engineFromOutside.pattern]), ...engineFromOutside.dynamic },
  },
);
