import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempScan } from '../../../support/temp-scan.ts';
import { expectClaims, extractFile } from './extractor.ts';
import type { Target } from '../../../../server/engine/model.ts';
import {
  extractors, gemfileLockExtractor, gemspecExtractor, parseGemfileGroups, parseGemfileLock, parseGemspec,
} from '../../../../server/engine/extractors/ruby/index.ts';

const { scan } = useTempScan('cairn-ruby-', extractors);
const by = (t: Target, name: string) => t.components.find((c) => c.name === name)!;

const LOCK = `GIT
  remote: https://github.com/rails/rails-html-sanitizer.git
  revision: 0123456789abcdef
  branch: main
  specs:
    rails-html-sanitizer (1.6.0)
      loofah (~> 2.21)
      nokogiri (~> 1.14)

PATH
  remote: .
  specs:
    myapp (0.3.0)
      rack (>= 2.0)

GEM
  remote: https://rubygems.org/
  specs:
    loofah (2.22.0)
      crass (~> 1.0.2)
      nokogiri (>= 1.12.0)
    crass (1.0.6)
    nokogiri (1.15.4-arm64-darwin)
      racc (~> 1.4)
    nokogiri (1.15.4-x86_64-linux)
      racc (~> 1.4)
    racc (1.7.3)
    rack (3.0.8)
    rspec (3.12.0)
      rspec-core (~> 3.12.0)
    rspec-core (3.12.2)
    pry (0.14.2)
      coderay (~> 1.1)
    coderay (1.1.3)

PLATFORMS
  arm64-darwin
  x86_64-linux

DEPENDENCIES
  myapp!
  pry
  rails-html-sanitizer!
  rspec (~> 3.12)

CHECKSUMS
  crass (1.0.6) sha256=abc

RUBY VERSION
   ruby 3.2.2p53

BUNDLED WITH
   2.4.19
`;

const GEMFILE = `source "https://rubygems.org"
# the app itself
gemspec

gem "rails-html-sanitizer", git: "https://github.com/rails/rails-html-sanitizer.git" # pinned

group :development, :test do
  gem "rspec", "~> 3.12"
  platforms :mri do
    gem 'pry'
  end
end

group :production do
  gem "pry" if ENV["DEBUG"]
end
`;

describe('Gemfile.lock', () => {
  it('matches Gemfile.lock and gems.locked', () => {
    expectClaims(gemfileLockExtractor, ['Gemfile.lock', 'app/gems.locked'], ['Gemfile']);
    expectClaims(gemspecExtractor, ['specifications/rack-3.0.8.gemspec'], []);
  });

  it('specs with nested dependencies, platform suffixes stripped, PATH gem as the project', async () => {
    const result = await scan({ 'Gemfile.lock': LOCK });
    expect(result.problems).toEqual([]);
    const t = result.targets[0]!;
    expect(t).toMatchObject({ file: 'Gemfile.lock', type: 'bundler', ecosystem: 'gem', project: { purl: 'pkg:gem/myapp@0.3.0', name: 'myapp', version: '0.3.0' } });
    expect(t.components.map((c) => `${c.name}@${c.version}`)).toEqual([
      'rails-html-sanitizer@1.6.0', 'loofah@2.22.0', 'crass@1.0.6', 'nokogiri@1.15.4', 'racc@1.7.3', 'rack@3.0.8',
      'rspec@3.12.0', 'rspec-core@3.12.2', 'pry@0.14.2', 'coderay@1.1.3',
    ]);
    expect(by(t, 'nokogiri')).toMatchObject({ purl: 'pkg:gem/nokogiri@1.15.4', dependsOn: ['pkg:gem/racc@1.7.3'], locations: [{ file: 'Gemfile.lock', startLine: 23, endLine: 23 }] });
    expect(by(t, 'rails-html-sanitizer').dependsOn).toEqual(['pkg:gem/loofah@2.22.0', 'pkg:gem/nokogiri@1.15.4']);
    // DEPENDENCIES plus what the project's own gemspec needs are direct.
    expect(t.components.filter((c) => c.direct).map((c) => c.name).sort()).toEqual(['pry', 'rack', 'rails-html-sanitizer', 'rspec']);
    // Without a Gemfile every gem is runtime.
    expect(t.components.every((c) => c.scope === 'runtime')).toBe(true);
  });

  it('development and test groups of the Gemfile make gems development', async () => {
    const result = await scan({ 'Gemfile.lock': LOCK, Gemfile: GEMFILE });
    const t = result.targets[0]!;
    expect(t.components.filter((c) => c.scope === 'development').map((c) => c.name).sort()).toEqual(['rspec', 'rspec-core']);
    // pry is also in :production, so it stays runtime.
    expect(by(t, 'pry').scope).toBe('runtime');
    expect(t.roots.sort()).toEqual(['pkg:gem/pry@0.14.2', 'pkg:gem/rack@3.0.8', 'pkg:gem/rails-html-sanitizer@1.6.0']);
  });

  it('Gemfile groups: blocks, inline options, nesting', () => {
    const groups = parseGemfileGroups(`
group :test do
  gem "capybara"
end
gem "rubocop", require: false, group: :development
gem "debug", groups: [:development, :test]
gem 'puma', '~> 6'
group(:development) { gem "listen" }
if ENV["CI"]
  gem "simplecov"
end
gem "bootsnap", :group => "default"
`);
    const dev = (name: string) => groups.get(name)?.dev;
    expect(dev('capybara')).toBe(true);
    expect(dev('rubocop')).toBe(true);
    expect(dev('debug')).toBe(true);
    expect(dev('puma')).toBe(false);
    expect(dev('listen')).toBe(true);
    expect(dev('simplecov')).toBe(false);
    expect(dev('bootsnap')).toBe(false);
  });

  it('reports malformed lockfiles in Chinese', async () => {
    expect(() => parseGemfileLock('this is not a lockfile\n', 'Gemfile.lock')).toThrow(/不是 Gemfile.lock/);
    expect(() => parseGemfileLock('   indented first\n', 'Gemfile.lock')).toThrow(/不是 Gemfile.lock/);
    expect(() => parseGemfileLock('', 'Gemfile.lock')).toThrow(/不是 Gemfile.lock/);
    // What Bundler passes over is passed over here too, and told.
    expect(parseGemfileLock('GEM\n  specs:\n    broken (1.0\n      dep\n    ok (2.0)\n', 'Gemfile.lock')).toMatchObject({
      specs: [{ name: 'ok', version: '2.0', deps: [] }],
      problems: ['Gemfile.lock 第 3 行：gem 条目“broken (1.0”格式错误，已跳过'],
    });
    expect(parseGemfileLock('   first\nGEM\n  specs:\n    ok (2.0)\n', 'Gemfile.lock').problems).toEqual(['Gemfile.lock 第 1 行：出现在任何段落之前，已跳过']);
    const result = await scan({ 'a/Gemfile.lock': '<<<<<<< HEAD\n', 'b/Gemfile.lock': LOCK });
    expect(result.problems.map((p) => p.file)).toEqual(['a/Gemfile.lock']);
    expect(result.targets.map((t) => t.file)).toEqual(['b/Gemfile.lock']);
  });
});

describe('gemspec', () => {
  it('reads an installed specification written by RubyGems', async () => {
    const text = `# -*- encoding: utf-8 -*-
# stub: activesupport 6.0.2.1 ruby lib

Gem::Specification.new do |s|
  s.name = "activesupport".freeze
  s.version = "6.0.2.1"

  s.required_rubygems_version = Gem::Requirement.new(">= 0".freeze) if s.respond_to? :required_rubygems_version=
  s.licenses = ["MIT".freeze]
  s.add_runtime_dependency(%q<i18n>.freeze, [">= 0.7", "< 2"])
end
`;
    const result = await scan({ 'var/lib/gems/2.5.0/specifications/activesupport-6.0.2.1.gemspec': text });
    expect(result.problems).toEqual([]);
    const t = result.targets[0]!;
    expect(t).toMatchObject({ type: 'gemspec', ecosystem: 'gem', project: null });
    expect(t.components).toEqual([{
      purl: 'pkg:gem/activesupport@6.0.2.1', ecosystem: 'gem', name: 'activesupport', version: '6.0.2.1', direct: false, scope: 'runtime',
      locations: [{ file: 'var/lib/gems/2.5.0/specifications/activesupport-6.0.2.1.gemspec', startLine: 5, endLine: 5 }],
      licenses: ['MIT'], dependsOn: [],
    }]);
  });

  it('installed specifications depend on the gems installed beside them (default gems too), not on development dependencies', async () => {
    const spec = (name: string, version: string, body = '') => `# stub: ${name} ${version} ruby lib\n\nGem::Specification.new do |s|\n  s.name = "${name}".freeze\n  s.version = "${version}"\n${body}end\n`;
    // The layout older RubyGems wrote: development dependencies repeated as add_dependency for old RubyGems.
    const legacy = [
      '  if s.respond_to? :add_runtime_dependency then',
      '    s.add_runtime_dependency(%q<rack>.freeze, [">= 2"])',
      '    s.add_runtime_dependency(%q<json>.freeze, [">= 0"])',
      '    s.add_development_dependency(%q<rake>.freeze, [">= 0"])',
      '  else',
      '    s.add_dependency(%q<rack>.freeze, [">= 2"])',
      '    s.add_dependency(%q<json>.freeze, [">= 0"])',
      '    s.add_dependency(%q<rake>.freeze, [">= 0"])',
      '  end',
      '',
    ].join('\n');
    const dir = 'usr/local/bundle/specifications';
    const result = await scan({
      [`${dir}/sinatra-3.0.0.gemspec`]: spec('sinatra', '3.0.0', legacy),
      [`${dir}/rack-2.2.8.gemspec`]: spec('rack', '2.2.8'),
      [`${dir}/rake-13.0.6.gemspec`]: spec('rake', '13.0.6'),
      [`${dir}/default/json-2.7.2.gemspec`]: spec('json', '2.7.2'),
      [`${dir}/nokogiri-1.15.4-x86_64-linux.gemspec`]: spec('nokogiri', '1.15.4'),
      // The gemspec unpacked with an installed gem is the same gem: not read a second time.
      'usr/local/bundle/gems/rack-2.2.8/rack.gemspec': spec('rack', '2.2.8'),
    });
    expect(result.problems).toEqual([]);
    const components = result.targets.flatMap((t) => t.components);
    expect(components.map((c) => c.purl).sort()).toEqual(['pkg:gem/json@2.7.2', 'pkg:gem/nokogiri@1.15.4', 'pkg:gem/rack@2.2.8', 'pkg:gem/rake@13.0.6', 'pkg:gem/sinatra@3.0.0']);
    expect(components.find((c) => c.name === 'sinatra')!.dependsOn).toEqual(['pkg:gem/rack@2.2.8', 'pkg:gem/json@2.7.2']);
  });

  it('hand-written gemspec: %q names, %w licences, VERSION constant from lib/<name>/version.rb', async () => {
    const result = await scan({
      'my-gem.gemspec': `require_relative "lib/my/gem/version"\n\nGem::Specification.new do |spec|\n  spec.name          = %q{my-gem}\n  spec.version       = My::Gem::VERSION\n  spec.licenses      = %w[MIT Apache-2.0]\nend\n`,
      'lib/my/gem/version.rb': 'module My\n  module Gem\n    VERSION = "2.4.1".freeze\n  end\nend\n',
    });
    expect(result.problems).toEqual([]);
    expect(result.targets[0]!.components[0]).toMatchObject({ purl: 'pkg:gem/my-gem@2.4.1', licenses: ['MIT', 'Apache-2.0'] });
  });

  it('literal parsing variants', () => {
    expect(parseGemspec(`Gem::Specification.new 'tiny', '0.1.0' do |s|\n  s.license = 'BSD-2-Clause'\nend`)).toMatchObject({ name: 'tiny', version: '0.1.0', licenses: ['BSD-2-Clause'] });
    expect(parseGemspec(`Gem::Specification.new do |s|\n  s.name = "x"\n  s.version = Gem::Version.new("1.2.3")\nend`)).toMatchObject({ name: 'x', version: '1.2.3' });
    const y = parseGemspec(`Gem::Specification.new do |s|\n  s.name = "y"\n  s.version = Y::VERSION\nend`);
    expect(y).toMatchObject({ name: 'y', versionConstant: 'Y::VERSION' });
    expect(y.version).toBeUndefined();
  });

  it('unknown version stays empty; non-gemspec files are reported', async () => {
    const result = await scan({
      'a.gemspec': 'Gem::Specification.new do |s|\n  s.name = "dyn"\n  s.version = compute_version\nend\n',
      'b.gemspec': 'puts "hello"\n',
      'c.gemspec': 'Gem::Specification.new do |s|\n  s.name = NAME\nend\n',
    });
    expect(result.targets.map((t) => t.components[0]!.purl)).toEqual(['pkg:gem/dyn']);
    expect(result.problems.map((p) => p.file)).toEqual(['b.gemspec', 'c.gemspec']);
    expect(result.problems[0]!.message).toMatch(/不是 gemspec 文件/);
  });
});

describe('byte-order marks and CRLF line ends', () => {
  it('Gemfile.lock', () => {
    const lock = parseGemfileLock('\uFEFFGEM\r\n  remote: https://rubygems.org/\r\n  specs:\r\n    rack (3.0.8)\r\n\r\nDEPENDENCIES\r\n  rack\r\n', 'Gemfile.lock');
    expect(lock.specs.map((s) => `${s.name}@${s.version}`)).toEqual(['rack@3.0.8']);
    expect(lock.dependencies.map((d) => d.name)).toEqual(['rack']);
  });
});

describe('a real Gemfile.lock with what Bundler passes over', () => {
  it('skips the unknown section and the corrupt gem, lists them with their lines, keeps the rest', async () => {
    const root = path.join(import.meta.dirname, '../../../fixtures/public/lockfiles/ruby');
    const t = await extractFile(gemfileLockExtractor, root, 'Gemfile.lock');
    expect(t.problems).toEqual([
      'Gemfile.lock 第 24 行：gem 条目“rainbow (2.1.0”格式错误，已跳过',
      'Gemfile.lock 第 52 行：Bundler 不认识的段落“SIGNATURES”，已跳过该段落',
    ]);
    expect(t.components).toHaveLength(20);
    expect(t.components.some((c) => c.name === 'rainbow')).toBe(false);
    expect(t.project).toMatchObject({ name: 'simple_commander', version: '0.5.1' });
    const rubocop = t.components.find((c) => c.name === 'rubocop')!;
    expect(rubocop).toMatchObject({ version: '0.29.1', direct: true });
    // The dependency on the skipped gem has nothing to point at; the others stay.
    expect(rubocop.dependsOn).toEqual(['pkg:gem/astrolabe@1.3.1', 'pkg:gem/parser@2.3.3.1', 'pkg:gem/powerpack@0.1.1', 'pkg:gem/ruby-progressbar@1.8.1']);
    // DEPENDENCIES after the unknown section is read as ever.
    expect(t.components.filter((c) => c.direct).map((c) => c.name).sort()).toEqual(['codeclimate-test-reporter', 'colorized', 'highline', 'rake', 'rspec', 'rubocop', 'simplecov']);
  });
});
