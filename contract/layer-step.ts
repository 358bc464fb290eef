// A container image layer's build step as people read it: the scan output formats, the reports and
// the layer tree show it (contract/api/image.ts re-exports it beside the image's schemas).

/**
 * The Dockerfile step of a layer as a person reads it: image history records `RUN` steps as
 * `/bin/sh -c apt-get …` (BuildKit: `RUN /bin/sh -c … # buildkit`) and the other instructions as
 * `/bin/sh -c #(nop)  COPY …`; both become `RUN apt-get …` / `COPY …`.
 */
export function layerStep(createdBy: string | null): string {
  if (!createdBy) return '';
  let s = createdBy.trim().replace(/\s+# buildkit$/, '');
  const nop = /^\/bin\/sh -c #\(nop\)\s*/.exec(s);
  if (nop) return s.slice(nop[0].length).trim();
  s = s.replace(/^RUN \/bin\/sh -c /, 'RUN ');
  if (s.startsWith('/bin/sh -c ')) return `RUN ${s.slice('/bin/sh -c '.length).trim()}`;
  return s;
}
