/** Test helpers of the documents module. */

/**
 * A small well-formedness check (no XML package in the project): one root, tags balanced and
 * properly nested, attributes quoted, only the five predefined entities or character references.
 */
export function assertWellFormedXml(xml: string): void {
  const body = xml.replace(/^<\?xml[^?]*\?>\s*/, '');
  const stack: string[] = [];
  let roots = 0;
  const re = /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>|([^<]+)|(<)/g;
  let m: RegExpExecArray | null = re.exec(body);
  while (m) {
    if (m[6]) throw new Error(`stray < at ${m.index}`);
    if (m[5] !== undefined) {
      if (stack.length === 0 && m[5].trim()) throw new Error('text outside the root');
      const amp = m[5].match(/&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/);
      if (amp) throw new Error(`bare & in ${JSON.stringify(m[5].slice(0, 40))}`);
    } else if (m[1]) {
      const open = stack.pop();
      if (open !== m[2]) throw new Error(`</${m[2]}> closes <${open}>`);
    } else {
      if (stack.length === 0) roots += 1;
      if (!m[4]) stack.push(m[2]!);
    }
    m = re.exec(body);
  }
  if (stack.length) throw new Error(`unclosed <${stack.join('><')}>`);
  if (roots !== 1) throw new Error(`${roots} root elements`);
}
