// /desktop/review 离线查看: a library entry (?id=) or any report / SBOM file from disk, read by
// main (review.open) and shown here — PDF pages, SBOM / Excel / SWID tables, Word as a page.
// Public and platform-free: it works signed out and with the local platform stopped.
import { lazy, Suspense, useEffect, useState } from 'react';
import { Button, Callout, Classes, Intent, Tag } from '@blueprintjs/core';
import { useNavigate, useSearchParams } from 'react-router';
import type { ReviewDocument } from '../../../contract/ipc/desktop-contract.ts';
import { PageHeader } from '../../common/PageHeader.tsx';
import { LoadingState } from '../../common/states.tsx';
import { desktopErrorMessage, invokeDesktop } from '../../platform/desktop.ts';
import { ReviewPicker } from './ReviewPicker.tsx';
import { ReviewTables } from './ReviewTables.tsx';
import { HtmlDocument } from './HtmlDocument.tsx';
import { libraryZh } from '../../i18n/library.ts';
import './styles.ts';

// pdf.js (and its worker) load only when a PDF is opened.
const PdfViewer = lazy(() => import('./PdfViewer.tsx'));

const t = libraryZh.review;

type Source = { id: string } | { path: string };
type View = { status: 'idle' } | { status: 'loading'; source: Source } | { status: 'ready'; doc: ReviewDocument } | { status: 'failed'; source: Source; message: string };

function DocumentBody({ doc }: { doc: ReviewDocument }) {
  switch (doc.kind) {
    case 'pdf':
      return (
        <Suspense fallback={<LoadingState label={t.pdfLoading} />}>
          <PdfViewer base64={doc.base64} />
        </Suspense>
      );
    case 'html':
      return <HtmlDocument html={doc.html} />;
    default:
      return <ReviewTables tables={doc.tables} />;
  }
}

function Subtitle({ doc }: { doc: ReviewDocument }) {
  return (
    <span className="cairn-rv-subtitle">
      <Tag minimal intent={Intent.PRIMARY}>{doc.kind === 'sbom' ? doc.standard || t.kinds.sbom : t.kinds[doc.kind]}</Tag>
      {doc.kind === 'sbom' && doc.name ? (
        <span>
          <span className={Classes.TEXT_MUTED}>{t.name}：</span>
          {doc.name}
        </span>
      ) : null}
    </span>
  );
}

export default function ReviewScreen() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const id = params.get('id')?.trim() || null;
  const [view, setView] = useState<View>(id ? { status: 'loading', source: { id } } : { status: 'idle' });

  const open = (source: Source) => {
    setView({ status: 'loading', source });
    invokeDesktop((api) => api.review.open(source)).then(
      (doc) => setView({ status: 'ready', doc }),
      (e: unknown) => setView({ status: 'failed', source, message: desktopErrorMessage(e, t.openFailed) }),
    );
  };

  useEffect(() => {
    if (id) open({ id });
    else setView({ status: 'idle' });
    // `open` is a fresh closure each render; the id alone decides.
  }, [id]);

  const back = <Button icon="arrow-left" text={t.back} onClick={() => navigate('/desktop/library')} data-testid="review-back" />;

  if (view.status === 'ready') {
    const { doc } = view;
    return (
      <div className="cairn-page cairn-rv-page" data-testid="review-document" data-kind={doc.kind}>
        <PageHeader
          title={doc.fileName}
          subtitle={<Subtitle doc={doc} />}
          actions={
            <>
              {back}
              <Button icon="document-open" text={t.openAnother} onClick={() => (id ? navigate('/desktop/review') : setView({ status: 'idle' }))} />
            </>
          }
        />
        <div className="cairn-rv-body">
          <DocumentBody doc={doc} />
        </div>
      </div>
    );
  }

  // A library entry that cannot be read says so with a retry; a file from disk goes back to the picker with the reason.
  const failedEntry = view.status === 'failed' && 'id' in view.source;
  return (
    <div className="cairn-page cairn-rv-page">
      <PageHeader title={t.title} subtitle={t.subtitle} actions={back} />
      {view.status === 'loading' && 'id' in view.source ? (
        <LoadingState label={t.loading} />
      ) : failedEntry ? (
        <Callout intent={Intent.DANGER} icon="error" title={t.openFailed} className="cairn-rv-error" data-testid="review-error">
          <p>{view.message}</p>
          <div className="cairn-rv-error-actions">
            <Button icon="refresh" text={libraryZh.actions.retry} onClick={() => id && open({ id })} />
            <Button icon="document-open" text={t.openAnother} onClick={() => navigate('/desktop/review')} />
          </div>
        </Callout>
      ) : (
        <ReviewPicker
          onPath={(path) => open({ path })}
          busy={view.status === 'loading' ? t.loading : null}
          error={view.status === 'failed' ? view.message : null}
        />
      )}
    </div>
  );
}
