// The version strings well-known C libraries and programs compile into themselves, one rule each
// (README.md in this folder lists them with their sources). A rule is found by a literal needle
// (memchr-fast Buffer.indexOf over the read-only data) and confirmed by a regular expression read
// at the needle, whose first group is the version. Libraries that carry only a bare version
// (`3.40.1`) are looked for only in files named like them, or near an anchor string of their own.
// Components are pkg:generic purls named as the NVD's CPE product names them (`cpe` below):
// advisories for C libraries are keyed by CPE or by a distribution's package, not by a purl type.

export interface VersionRule {
  /** purl name of the component: pkg:generic/<name>@<version>. */
  name: string;
  /** As users know it, in the evidence's rule: `版本字符串 OpenSSL`. */
  label: string;
  /** CPE 2.3 vendor:product, for a matcher keyed by CPE. */
  cpe: string;
  /**
   * Literal bytes (latin1) that start a match. A leading NUL marks a string that starts there: the
   * byte before must not continue a word or number (a NUL, the end of a table), and is not part of the match.
   */
  needles: string[];
  /** Read at the needle (sticky, so it starts there); group 1 is the version. */
  pattern: RegExp;
  /** Only in files whose base name matches (for bare versions); the version must pass `accept` too. */
  fileName?: RegExp;
  accept?: (version: string, baseName: string) => boolean;
  /**
   * The library's shared-object name: a file that links it dynamically carries its version string
   * only as the header it was compiled against (`openssl version`, `curl --version`), not the
   * library itself, so the rule is not applied there.
   */
  library?: RegExp;
}

export const VERSION_RULES: readonly VersionRule[] = [
  {
    // OPENSSL_VERSION_TEXT: "OpenSSL 3.0.19 27 Jan 2026", "OpenSSL 1.1.1w  11 Sep 2023", "OpenSSL 1.0.2k-fips  26 Jan 2017".
    name: 'openssl', label: 'OpenSSL', cpe: 'openssl:openssl',
    library: /^(lib(crypto|ssl)([.-]\d|\.so|\.dylib|\.dll)|(lib|ssl)eay32\.dll)/i,
    needles: ['OpenSSL '],
    pattern: /OpenSSL (\d+\.\d+\.\d+[a-z]{0,2})(?:-[\w.]+)? {1,2}\d{1,2} [A-Z][a-z]{2} \d{4}/y,
  },
  {
    // LibreSSL's own OPENSSL_VERSION_TEXT: "LibreSSL 3.8.2".
    name: 'libressl', label: 'LibreSSL', cpe: 'openbsd:libressl',
    library: /^lib(crypto|ssl|tls)([.-]\d|\.so|\.dylib|\.dll)/i,
    needles: ['LibreSSL '],
    pattern: /LibreSSL (\d+\.\d+\.\d+)\0/y,
  },
  {
    // deflate_copyright / inflate_copyright: " deflate 1.2.13 Copyright 1995-2022 Jean-loup Gailly and Mark Adler ".
    name: 'zlib', label: 'zlib', cpe: 'zlib:zlib',
    library: /^(libz\.(so|\d|dylib)|zlib1?\.dll)/i,
    needles: ['deflate ', 'inflate '],
    pattern: /(?:de|in)flate (\d+\.\d+(?:\.\d+){0,2})(?:\.\d+-motley|-\w+)? Copyright 1995-\d{4} /y,
  },
  {
    // curl_version(): LIBCURL_NAME "/" LIBCURL_VERSION, and the `curl` tool's "curl 8.5.0 (x86_64-pc-linux-gnu)".
    name: 'curl', label: 'curl', cpe: 'haxx:curl',
    library: /^libcurl/i,
    needles: ['libcurl/', 'CLIENT libcurl ', 'curl '],
    pattern: /(?:libcurl\/|CLIENT libcurl |curl )(\d+\.\d+\.\d+)(?:-DEV)?(?:\0| \([\w.-]+\) )/y,
  },
  {
    // png_get_header_version(): " libpng version 1.6.39 - November 20, 2022".
    name: 'libpng', label: 'libpng', cpe: 'libpng:libpng',
    library: /^libpng/i,
    needles: ['libpng version '],
    pattern: /libpng version (\d+\.\d+\.\d+)/y,
  },
  {
    // BB_BANNER: "BusyBox v1.36.1 (2023-11-07 18:53:09 UTC)".
    name: 'busybox', label: 'BusyBox', cpe: 'busybox:busybox',
    needles: ['BusyBox v'],
    pattern: /BusyBox v(\d+\.\d+\.\d+)/y,
  },
  {
    // XML_ExpatVersion(): "expat_2.5.0".
    name: 'expat', label: 'Expat', cpe: 'libexpat_project:libexpat',
    library: /^libexpat/i,
    needles: ['expat_'],
    pattern: /expat_(\d+\.\d+\.\d+)\0/y,
  },
  {
    // PCRE2_MAJOR "." PCRE2_MINOR " " PCRE2_DATE of pcre2_config(PCRE2_CONFIG_VERSION): "10.42 2022-12-11".
    name: 'pcre2', label: 'PCRE2', cpe: 'pcre:pcre2',
    library: /^libpcre2-/i,
    needles: ['\u000010.'],
    pattern: /(10\.\d{2})(?:-RC\d)? 20\d\d-\d\d-\d\d\0/y,
  },
  {
    // pcre_version(): "8.45 2021-06-15".
    name: 'pcre', label: 'PCRE', cpe: 'pcre:pcre',
    library: /^libpcre\./i,
    needles: ['\u00008.'],
    pattern: /(8\.\d{2}) 20\d\d-\d\d-\d\d\0/y,
  },
  {
    // BZ2_bzlibVersion(): "1.0.8, 13-Jul-2019".
    name: 'bzip2', label: 'bzip2', cpe: 'bzip:bzip2',
    library: /^libbz2/i,
    needles: ['\u00001.'],
    pattern: /(1\.\d\.\d+), \d{1,2}-[A-Z][a-z]{2}-\d{4}\0/y,
  },
  {
    // "libjpeg-turbo version 2.1.5 (build 20230203)".
    name: 'libjpeg-turbo', label: 'libjpeg-turbo', cpe: 'libjpeg-turbo:libjpeg-turbo',
    library: /^(libjpeg|libturbojpeg)/i,
    needles: ['libjpeg-turbo version '],
    pattern: /libjpeg-turbo version (\d+\.\d+\.\d+)/y,
  },
  {
    // TIFFGetVersion(): "LIBTIFF, Version 4.5.0\nCopyright (c) 1988-1996 Sam Leffler".
    name: 'libtiff', label: 'libtiff', cpe: 'libtiff:libtiff',
    library: /^libtiff/i,
    needles: ['LIBTIFF, Version '],
    pattern: /LIBTIFF, Version (\d+\.\d+\.\d+)/y,
  },
  {
    // gnutls_global_init() logging: "Enabled GnuTLS 3.7.9 logging...".
    name: 'gnutls', label: 'GnuTLS', cpe: 'gnu:gnutls',
    library: /^libgnutls/i,
    needles: ['Enabled GnuTLS '],
    pattern: /Enabled GnuTLS (\d+\.\d+\.\d+) logging/y,
  },
  {
    // gcry_check_version's banner: "This is Libgcrypt 1.10.1 - The GNU Crypto Library".
    name: 'libgcrypt', label: 'Libgcrypt', cpe: 'gnupg:libgcrypt',
    library: /^libgcrypt/i,
    needles: ['This is Libgcrypt '],
    pattern: /This is Libgcrypt (\d+\.\d+\.\d+)/y,
  },
  {
    // LIBSSH2_SSH_DEFAULT_BANNER: "SSH-2.0-libssh2_1.10.0".
    name: 'libssh2', label: 'libssh2', cpe: 'libssh2:libssh2',
    library: /^libssh2/i,
    needles: ['SSH-2.0-libssh2_'],
    pattern: /SSH-2\.0-libssh2_(\d+\.\d+\.\d+)/y,
  },
  {
    // KRB5_BRAND (patchlevel.h): "KRB5_BRAND: krb5-1.20.1-final 1.20.1 20221111".
    name: 'kerberos', label: 'MIT Kerberos', cpe: 'mit:kerberos_5',
    library: /^libkrb5\./i,
    needles: ['KRB5_BRAND: krb5-'],
    pattern: /KRB5_BRAND: krb5-(\d+\.\d+(?:\.\d+)?)/y,
  },
  {
    // SSH_VERSION: "OpenSSH_9.2p1" (the compatibility table's "OpenSSH_7.4*" patterns are not versions).
    name: 'openssh', label: 'OpenSSH', cpe: 'openbsd:openssh',
    needles: ['OpenSSH_'],
    pattern: /OpenSSH_(\d+\.\d+(?:\.\d+)?(?:p\d+)?)[\0 ]/y,
  },
  {
    // NGINX_VER: "nginx/1.22.1".
    name: 'nginx', label: 'nginx', cpe: 'f5:nginx',
    needles: ['nginx/'],
    pattern: /nginx\/(\d+\.\d+\.\d+)\0/y,
  },
  {
    // AP_SERVER_BASEVERSION: "Apache/2.4.57".
    name: 'apache-httpd', label: 'Apache httpd', cpe: 'apache:http_server',
    needles: ['Apache/2.'],
    pattern: /Apache\/(2\.\d+\.\d+)[\0 ]/y,
    fileName: /^(httpd|apache2|libhttpd\.(so|dll)|mod_\w+\.so)$/i,
  },
  {
    // The release tarball URL process.release carries: "https://nodejs.org/download/release/v20.20.2/node-v20.20.2.tar.gz".
    name: 'node.js', label: 'Node.js', cpe: 'nodejs:node.js',
    needles: ['nodejs.org/download/release/v'],
    pattern: /nodejs\.org\/download\/release\/v(\d+\.\d+\.\d+)\/node-v\1\.tar\.gz/y,
  },
  {
    // gnu_get_libc_version's banner: "GNU C Library (Debian GLIBC 2.36-9+deb12u14) stable release version 2.36.".
    name: 'glibc', label: 'GNU C Library', cpe: 'gnu:glibc',
    needles: ['GNU C Library '],
    pattern: /GNU C Library [^\0\n]{0,80}?release version (\d+\.\d+(?:\.\d+)?)/y,
  },
  {
    // musl's dynamic loader: "musl libc (x86_64)\nVersion %s\n" with the version "1.2.4" in a string of its own.
    name: 'musl', label: 'musl', cpe: 'musl-libc:musl',
    needles: ['\u00001.'],
    pattern: /(1\.\d\.\d{1,2})\0/y,
    fileName: /^(ld-musl-[\w-]+\.so\.1|libc\.musl-[\w-]+\.so\.1)$/,
  },
  {
    // event_get_version(): EVENT__VERSION "2.1.12-stable".
    name: 'libevent', label: 'libevent', cpe: 'libevent_project:libevent',
    library: /^libevent/i,
    needles: ['\u00002.'],
    pattern: /(2\.\d+\.\d+)-(?:stable|beta|alpha|rc)\0/y,
    fileName: /^libevent(_core|_extra|_openssl|_pthreads)?(-\d+\.\d+)?\.(so(\.\d+)*|dylib)$/i,
  },
  {
    // LZ4_versionString(): LZ4_VERSION_STRING "1.9.4".
    name: 'lz4', label: 'LZ4', cpe: 'lz4_project:lz4',
    library: /^liblz4/i,
    needles: ['\u00001.'],
    pattern: /(1\.\d+\.\d+)\0/y,
    fileName: /^liblz4\.(so(\.\d+)*|\d+\.dylib|dylib)$/i,
  },
  {
    // hb_version_string(): HB_VERSION_STRING "6.0.0".
    name: 'harfbuzz', label: 'HarfBuzz', cpe: 'harfbuzz_project:harfbuzz',
    library: /^libharfbuzz\./i,
    needles: ['\u00001.', '\u00002.', '\u00003.', '\u00004.', '\u00005.', '\u00006.', '\u00007.', '\u00008.', '\u00009.'],
    pattern: /(\d+\.\d+\.\d+)\0/y,
    fileName: /^libharfbuzz\.(so(\.\d+)*|\d+\.dylib|dylib)$/i,
  },
  {
    // sqlite3_libversion(): SQLITE_VERSION "3.40.1", next to the source id.
    name: 'sqlite', label: 'SQLite', cpe: 'sqlite:sqlite',
    library: /^libsqlite3/i,
    needles: ['\u00003.'],
    pattern: /(3\.\d{1,2}\.\d{1,2})\0/y,
    fileName: /^(libsqlite3\.so(\.\d+)*|libsqlite3(-\d+)?\.dylib|(lib)?sqlite3(-\d+)?\.dll|sqlite3(\.exe)?)$/i,
  },
  {
    // lzma_version_string(): LZMA_VERSION_STRING "5.4.1".
    name: 'xz', label: 'xz / liblzma', cpe: 'tukaani:xz',
    library: /^liblzma/i,
    needles: ['\u00005.'],
    pattern: /(5\.\d\.\d{1,2}(?:alpha|beta)?)\0/y,
    fileName: /^(liblzma\.so(\.\d+)*|liblzma(\.\d+)?\.dylib|liblzma\.dll|xz(\.exe)?)$/i,
  },
  {
    // PY_VERSION "3.11.2" of the interpreter or libpython, whose name carries the same major.minor.
    name: 'python', label: 'Python', cpe: 'python:python',
    library: /^libpython/i,
    needles: ['\u00002.', '\u00003.'],
    pattern: /([23]\.\d{1,2}\.\d{1,2})(?:[abc]|rc\d)?\0/y,
    fileName: /^(python[23]\.\d+m?|libpython[23]\.\d+m?\.so(\.\d+)*|libpython[23]\.\d+\.dylib|python[23]\d+\.dll)$/i,
    accept: (version, base) => {
      const m = /python([23])\.?(\d+)/i.exec(base);
      return !!m && version.startsWith(`${m[1]}.${m[2]}.`);
    },
  },
];

/** Longest text a rule's pattern reads from its needle. */
export const MAX_MATCH = 200;
