import temml from 'temml';

/**
 * TeX as MathML, by Temml. SECURITY: untrusted (`trust: false`: no `\href`, `\url`, `\includegraphics`, `\class`,
 * `\id`, `\style`, `\data`), and a formula it cannot read returns nothing rather than an error box, so that the
 * reply shows its TeX source as before.
 */
export function typeset(tex: string, display: boolean): string | undefined {
  try {
    return temml.renderToString(tex, { displayMode: display, throwOnError: true, trust: false, annotate: false });
  } catch {
    return undefined;
  }
}
