import temml from 'temml';

/**
 * TeX as MathML, by Temml. SECURITY: untrusted (`trust: false`: no `\href`, `\url`, `\includegraphics`, `\class`,
 * `\id`, `\style`, `\data`), and a formula it cannot read returns nothing rather than an error box, so that the
 * reply shows its TeX source as before.
 */
export function typeset(tex: string, display: boolean): string | undefined {
  try {
    const mathml = temml.renderToString(tex, {
      displayMode: display,
      throwOnError: true,
      trust: false,
      annotate: false,
    });
    // Its style attributes (`display: block math`, `\color`) would be parsed before the sanitizer drops them, which
    // a strict CSP (no 'unsafe-inline' style attributes) reports as a violation: dropped here first.
    return mathml.replace(/ style="[^"]*"/g, '');
  } catch {
    return undefined;
  }
}
