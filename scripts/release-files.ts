import { createHash } from 'node:crypto';
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** dist/'s one `askbox-<kind>.<hash>.js`: the chat file, an add-on it pins, or the greeting's file. */
function hashedFile(dist: string, kind: string): string {
  const found = readdirSync(dist).filter((name) => new RegExp(`^askbox-${kind}\\.[\\w-]+\\.js$`).test(name));
  if (found.length !== 1) throw new Error(`dist/ must hold exactly one askbox-${kind}.<hash>.js, not ${found.length}`);
  return found[0] as string;
}

/**
 * The files a site hosts together, under dist/: the launcher, the chat file it pins, the code and math add-ons the
 * chat file pins, the greeting's file the launcher pins, the self-diagnosis overlay and the locale packs. (The ESM build, the proxy and the types are for
 * bundlers and servers, not for a script tag.)
 */
export function shippedFiles(dist = 'dist'): string[] {
  const locales = readdirSync(join(dist, 'askbox-locales')).map((name) => `askbox-locales/${name}`);
  const hashed = ['chat', 'code', 'math', 'greeting'].map((kind) => hashedFile(dist, kind));
  return ['askbox.js', ...hashed, 'askbox-debug.js', ...locales.sort()];
}

/** One shipped file's entry in dist/manifest.json. */
export interface ManifestEntry {
  bytes: number;
  gzip: number;
  integrity: string;
}

/** dist/manifest.json's entries: each shipped file's size, gzip -9 size and Subresource Integrity (sha384). */
export function manifest(dist = 'dist'): Record<string, ManifestEntry> {
  return Object.fromEntries(
    shippedFiles(dist).map((file) => {
      const bytes = readFileSync(join(dist, file));
      const integrity = `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
      return [file, { bytes: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length, integrity }];
    }),
  );
}

/**
 * dist/wordpress/askbox/: the WordPress plugin, ready to zip: its own PHP files, the PHP proxy and the same shipped
 * files as the npm package and the demo.
 */
function wordpressPackage(dist = 'dist') {
  const out = join(dist, 'wordpress/askbox');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  for (const file of ['askbox.php', 'feedback.php', 'identity.php', 'widget-rules.php', 'uninstall.php', 'readme.txt'])
    copyFileSync(`src/proxy/wordpress/askbox/${file}`, join(out, file));
  copyFileSync('src/proxy/php/askbox-proxy.php', join(out, 'askbox-proxy.php'));
  for (const file of shippedFiles(dist)) {
    if (file.includes('/')) continue;
    copyFileSync(join(dist, file), join(out, file));
  }
  cpSync(join(dist, 'askbox-locales'), join(out, 'askbox-locales'), { recursive: true });
}

// `npm run build:release`, after the browser builds: dist/manifest.json and the WordPress package.
if (process.argv[1]?.endsWith('release-files.ts')) {
  if (!existsSync('dist/askbox.js'))
    throw new Error('dist/askbox.js is missing: run `npm run build` (it builds first)');
  writeFileSync('dist/manifest.json', `${JSON.stringify(manifest(), null, 2)}\n`);
  wordpressPackage();
}
