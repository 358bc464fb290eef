// build.gradle / build.gradle.kts read as text when no gradle.lockfile names what was resolved.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogAccessors, gradleBuildScriptExtractor, parseBuildScript } from '../../../../server/engine/extractors/gradle/build-script.ts';
import { extractors } from '../../../../server/engine/extractors/gradle/index.ts';
import type { Component } from '../../../../server/engine/model.ts';
import { useTempScan } from '../../../support/temp-scan.ts';
import { expectClaims, extractFile } from './extractor.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../../../fixtures/public/lockfiles/gradle');
const CATALOG = readFileSync(path.join(FIXTURES, 'nowinandroid/gradle/libs.versions.toml'), 'utf8');
const { scan } = useTempScan('cairn-gradle-build-', extractors);
const rows = (list: Component[]) => list.map((c) => [c.purl, c.version, c.constraint, c.scope, c.locations[0]!.startLine]);

describe('build.gradle and build.gradle.kts', () => {
  it('claims the Groovy and Kotlin build scripts', () => {
    expectClaims(gradleBuildScriptExtractor, ['build.gradle', 'app/build.gradle.kts'], ['settings.gradle', 'build.gradle.bak', 'mybuild.gradle']);
  });

  it('reads ORT\'s gradle-library: api, a classifier@extension coordinate, testImplementation', async () => {
    const t = await extractFile(gradleBuildScriptExtractor, path.join(FIXTURES, 'ort-gradle-library'), 'lib/build.gradle');
    expect(t).toMatchObject({ type: 'gradle-build', ecosystem: 'maven', project: null });
    expect(rows(t.components)).toEqual([
      ['pkg:maven/org.apache.commons/commons-text@1.1', '1.1', undefined, 'runtime', 11],
      ['pkg:maven/org.apache.struts/struts2-assembly@2.5.14.1', '2.5.14.1', undefined, 'runtime', 12],
      ['pkg:maven/junit/junit@4.12', '4.12', undefined, 'development', 13],
    ]);
    expect(t.components.every((c) => c.direct)).toBe(true);
  });

  it('reads ORT\'s gradle-android root script: the buildscript classpath is development; group/version are not dependencies', async () => {
    const t = await extractFile(gradleBuildScriptExtractor, path.join(FIXTURES, 'ort-gradle-android'), 'build.gradle');
    expect(rows(t.components)).toEqual([['pkg:maven/com.android.tools.build/gradle@3.4.0', '3.4.0', undefined, 'development', 8]]);
  });

  it('catalog accessors (nowinandroid\'s catalog): libs.a.b, version refs, BOM-managed libraries without a version, platform()', async () => {
    const result = await scan({
      'gradle/libs.versions.toml': CATALOG,
      'app/build.gradle.kts': `plugins {
    alias(libs.plugins.android.application)
}

dependencies {
    implementation(libs.androidx.core.ktx)
    implementation(platform(libs.androidx.compose.bom))
    implementation(libs.androidx.compose.material3.windowSizeClass)
    implementation(libs.androidx.compose.runtime)
    kapt(libs.hilt.compiler)
    testImplementation(libs.turbine)
    androidTestImplementation(libs.androidx.test.espresso.core)
    implementation(libs.not.in.catalog)
    implementation(project(":core:data"))
    testImplementation(kotlin("test"))
}
`,
    });
    expect(result.problems).toEqual([]);
    const t = result.targets.find((x) => x.type === 'gradle-build')!;
    expect(rows(t.components)).toEqual([
      ['pkg:maven/androidx.core/core-ktx@1.9.0', '1.9.0', undefined, 'runtime', 6],
      ['pkg:maven/androidx.compose/compose-bom@2023.01.00', '2023.01.00', undefined, 'runtime', 7],
      ['pkg:maven/androidx.compose.material3/material3-window-size-class@1.1.0-alpha06', '1.1.0-alpha06', undefined, 'runtime', 8],
      ['pkg:maven/androidx.compose.runtime/runtime', '', undefined, 'runtime', 9],
      ['pkg:maven/com.google.dagger/hilt-android-compiler@2.44.2', '2.44.2', undefined, 'development', 10],
      ['pkg:maven/app.cash.turbine/turbine@0.12.1', '0.12.1', undefined, 'development', 11],
      ['pkg:maven/androidx.test.espresso/espresso-core@3.5.0', '3.5.0', undefined, 'development', 12],
    ]);
    expect(catalogAccessors(CATALOG).libraries.get('androidx.window.manager')).toEqual({ group: 'androidx.window', name: 'window', version: '1.0.0' });
  });

  it('map notation, Kotlin named arguments, $var / ${var} from ext, val, extra and gradle.properties; ranges are constraints', async () => {
    const result = await scan({
      'gradle.properties': 'org.gradle.jvmargs=-Xmx2g\nguavaVersion=32.1.2-jre\n',
      'build.gradle': `ext {
    springVersion = '5.3.30'
}
ext.jacksonVersion = "2.15.2"
def slf4j = '2.0.9'
dependencies {
    implementation "org.springframework:spring-core:$springVersion"
    implementation "com.fasterxml.jackson.core:jackson-databind:\${jacksonVersion}"
    implementation group: 'org.slf4j', name: 'slf4j-api', version: slf4j
    implementation group: 'org.slf4j', name: 'slf4j-simple', version: "\${slf4j}"
    implementation "com.google.guava:guava:\${guavaVersion}"
    // implementation 'commented:out:1.0'
    /* testImplementation 'also:commented:1.0' */
    implementation 'org.apache.commons:commons-lang3:3.+'
    implementation 'commons-io:commons-io:[2.11,3.0)'
    implementation 'io.netty:netty-all:latest.release'
    implementation "org.unknown:thing:\${notDefined}"
    implementation enforcedPlatform('org.springframework.boot:spring-boot-dependencies:3.1.5')
    implementation 'org.springframework.boot:spring-boot-starter-web'
    compileOnly 'org.projectlombok:lombok:1.18.30'
    annotationProcessor 'org.projectlombok:lombok:1.18.30'
    testImplementation('org.junit.jupiter:junit-jupiter:5.10.0') { exclude group: 'x' }
    implementation files('libs/local.jar')
}
`,
      'kts/build.gradle.kts': `val ktorVersion: String by project
val coroutines = "1.7.3"
val exposed by extra("0.44.0")
dependencies {
    implementation("org.jetbrains.kotlinx:kotlinx-coroutines-core:$coroutines")
    implementation(group = "org.jetbrains.exposed", name = "exposed-core", version = exposed)
    implementation("io.ktor:ktor-server-core:$ktorVersion")
}
`,
    });
    expect(result.problems).toEqual([]);
    const groovy = result.targets.find((x) => x.file === 'build.gradle')!;
    expect(rows(groovy.components)).toEqual([
      ['pkg:maven/org.springframework/spring-core@5.3.30', '5.3.30', undefined, 'runtime', 7],
      ['pkg:maven/com.fasterxml.jackson.core/jackson-databind@2.15.2', '2.15.2', undefined, 'runtime', 8],
      ['pkg:maven/org.slf4j/slf4j-api@2.0.9', '2.0.9', undefined, 'runtime', 9],
      ['pkg:maven/org.slf4j/slf4j-simple@2.0.9', '2.0.9', undefined, 'runtime', 10],
      ['pkg:maven/com.google.guava/guava@32.1.2-jre', '32.1.2-jre', undefined, 'runtime', 11],
      ['pkg:maven/org.apache.commons/commons-lang3', '', '3.+', 'runtime', 14],
      ['pkg:maven/commons-io/commons-io', '', '[2.11,3.0)', 'runtime', 15],
      ['pkg:maven/io.netty/netty-all', '', 'latest.release', 'runtime', 16],
      ['pkg:maven/org.unknown/thing', '', undefined, 'runtime', 17],
      ['pkg:maven/org.springframework.boot/spring-boot-dependencies@3.1.5', '3.1.5', undefined, 'runtime', 18],
      ['pkg:maven/org.springframework.boot/spring-boot-starter-web', '', undefined, 'runtime', 19],
      ['pkg:maven/org.projectlombok/lombok@1.18.30', '1.18.30', undefined, 'development', 20],
      ['pkg:maven/org.junit.jupiter/junit-jupiter@5.10.0', '5.10.0', undefined, 'development', 22],
    ]);
    const kts = result.targets.find((x) => x.file === 'kts/build.gradle.kts')!;
    expect(rows(kts.components)).toEqual([
      ['pkg:maven/org.jetbrains.kotlinx/kotlinx-coroutines-core@1.7.3', '1.7.3', undefined, 'runtime', 5],
      ['pkg:maven/org.jetbrains.exposed/exposed-core@0.44.0', '0.44.0', undefined, 'runtime', 6],
      ['pkg:maven/io.ktor/ktor-server-core', '', undefined, 'runtime', 7],
    ]);
  });

  it('a project with a gradle.lockfile is left to the lockfile', async () => {
    const result = await scan({
      'build.gradle': "dependencies { implementation 'junit:junit:4.13.2' }\n",
      'gradle.lockfile': 'junit:junit:4.13.2=compileClasspath\nempty=\n',
    });
    expect(result.targets.map((t) => t.type)).toEqual(['gradle']);
    expect(parseBuildScript('', 'build.gradle')).toEqual([]);
  });
});

describe('large and damaged build scripts', () => {
  it('reads 3,000 declarations; an unclosed bracket costs only its own statement', () => {
    const lines = ['dependencies {'];
    for (let i = 0; i < 3000; i++) lines.push(`    implementation "org.example:lib${i}:1.0.${i}"`);
    lines.push('    implementation("broken:call:1.0"', '    implementation "after:broken:2.0"', '}');
    const list = parseBuildScript(lines.join('\n'), 'build.gradle');
    expect(list).toHaveLength(3002);
    expect(list[2999]).toMatchObject({ purl: 'pkg:maven/org.example/lib2999@1.0.2999', locations: [{ file: 'build.gradle', startLine: 3001, endLine: 3001 }] });
    expect(list.at(-1)!.purl).toBe('pkg:maven/after/broken@2.0');
  });
});
