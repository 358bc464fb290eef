// The honest page of a spec route whose screen is not built yet: it names the route and says the
// screen arrives with a later version. No data is shown.
import { Button, Card, Code, Icon, Tag } from '@blueprintjs/core';
import { useNavigate } from 'react-router';
import type { RouteInfo } from '../../../contract/routes.ts';
import { Page } from '../../common/PageHeader.tsx';
import { zh } from '../../i18n/zh-CN.ts';

export function UnderConstruction({ info }: { info: RouteInfo }) {
  const navigate = useNavigate();
  const tabs = info.tabs.filter((t) => !t.aliasOf);
  return (
    <Page title={info.title}>
      <Card className="cairn-construction">
        <Icon icon="build" size={40} className="cairn-construction-icon" />
        <div className="cairn-construction-text">
          <h4 className="cairn-construction-title">{zh.construction.title}</h4>
          <p>{zh.construction.body(info.title)}</p>
          <dl className="cairn-dl">
            <dt>{zh.construction.route}</dt>
            <dd>
              <Code>{info.path}</Code>
            </dd>
            {tabs.length ? (
              <>
                <dt>{zh.construction.tabs}</dt>
                <dd className="cairn-tag-row">
                  {tabs.map((t) => (
                    <Tag key={t.key} minimal>
                      {t.label}
                    </Tag>
                  ))}
                </dd>
              </>
            ) : null}
          </dl>
          <p className="cairn-muted">{zh.construction.noData}</p>
          <Button icon="home" text={zh.construction.back} onClick={() => navigate('/')} />
        </div>
      </Card>
    </Page>
  );
}
