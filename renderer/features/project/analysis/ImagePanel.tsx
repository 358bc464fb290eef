// 容器镜像 (task overview of an image run): what was analysed — the image's name and manifest
// digest, platform, base system from os-release, build time, size — and its layers bottom first,
// each with the Dockerfile step that made it and the components it brought (a click lists them).
import { Card, H5, HTMLTable, Tag } from '@blueprintjs/core';
import { layerStep, type RunImage } from '../../../../contract/api/image.ts';
import { DASH, formatDateTime, formatFileSize } from '../../../../contract/format.ts';
import { Field } from '../../../common/Field.tsx';
import { zh } from '../../../i18n/zh-CN.ts';

const t = zh.task.image;

/** `sha256:0123456789ab…`: enough of a digest to tell layers apart, the whole one in the title. */
export const shortDigest = (digest: string): string => (digest.length > 19 ? `${digest.slice(0, 19)}…` : digest);

/** A layer as a filter option or tree node reads: 第 2 层 · RUN apt-get install … */
export function layerLabel(image: RunImage, index: number): string {
  const step = layerStep(image.layers[index]?.createdBy ?? null);
  const short = step.length > 60 ? `${step.slice(0, 60)}…` : step;
  return short ? `${t.layerName(index)} · ${short}` : t.layerName(index);
}

export function ImagePanel({ image, onLayer }: { image: RunImage; onLayer: (index: number) => void }) {
  return (
    <Card className="cairn-panel cairn-image-panel" data-testid="image-panel">
      <H5>{t.title}</H5>
      <div className="cairn-fields cairn-fields-grid">
        <Field label={t.reference}>{image.reference ?? <span className="cairn-muted">{t.untagged}</span>}</Field>
        <Field label={t.os}>{image.os ? image.os.prettyName : <span className="cairn-muted">{t.osUnknown}</span>}</Field>
        <Field label={t.platform}>{image.platform}</Field>
        <Field label={t.layerCount}>{image.layers.length}</Field>
        <Field label={t.size}>{formatFileSize(image.size)}</Field>
        <Field label={t.created}>{image.created ? formatDateTime(image.created) : DASH}</Field>
        <Field label={t.digest} wide>
          <code className="cairn-code-inline">{image.manifestDigest}</code>
        </Field>
      </div>
      <H5 className="cairn-subheading">{t.layersTitle}</H5>
      <HTMLTable className="cairn-table cairn-layer-table" compact striped interactive>
        <thead>
          <tr>
            <th>{t.layer}</th>
            <th>{t.layerDigest}</th>
            <th>{t.layerSize}</th>
            <th>{t.step}</th>
            <th>{t.components}</th>
          </tr>
        </thead>
        <tbody>
          {image.layers.map((l) => (
            <tr key={l.index} onClick={() => onLayer(l.index)} data-testid={`image-layer-${l.index}`}>
              <td>{t.layerName(l.index)}</td>
              <td title={l.digest}>
                <code>{shortDigest(l.digest)}</code>
              </td>
              <td>{formatFileSize(l.size)}</td>
              <td className="cairn-layer-step" title={l.createdBy ?? ''}>
                {layerStep(l.createdBy) || <span className="cairn-muted">{t.noStep}</span>}
              </td>
              <td>{l.components ? <Tag minimal intent="primary">{l.components}</Tag> : <span className="cairn-muted">0</span>}</td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </Card>
  );
}
