// Knowledge-base checks (spec doc 2 §7 "Knowledge base"): which vulnerability ids the knowledge
// base knows, and what it knows about components. Every handler of contract/api/knowledge.ts.
import { knowledgeCalls } from '../../../contract/api/knowledge.ts';
import { kbStatusCalls } from '../../../contract/api/kb-status.ts';
import { ADMIN_SUCCESS_MESSAGES } from '../../../contract/errors.ts';
import { ok } from '../../../contract/envelope.ts';
import type { ServerContext } from '../../context.ts';
import { knownPackages, lookupIds } from '../../db/repositories/vulnerabilities.ts';
import { matchComponents } from '../../engine/index.ts';
import { UserError } from '../../errors.ts';
import { getAdvisoryIndex } from '../../kb/index-cache.ts';
import { KB_MSG } from '../../kb/messages.ts';
import { packageOf, parsePackageUrls, type PackageQuery } from '../../kb/packages.ts';
import { audit } from '../../db/repositories/audit-log.ts';
import { inTransaction } from '../../db/transaction.ts';
import { kbStatus, setStaleThreshold, staleThreshold } from '../../kb/status.ts';
import { indexHandlers, signedIn, type AreaHandlers, type HandlerIndex } from '../register.ts';

const MAX_COMPONENTS = 1000;

function knowledgeAreaHandlers({ db }: ServerContext): AreaHandlers<typeof knowledgeCalls> {
  return {
    async vulnerabilityCheck({ body }) {
      const found = await lookupIds(db, body.ids);
      return ok(body.ids.map((id) => {
        const hit = found.get(id);
        return {
          id,
          known: Boolean(hit),
          vulnerabilityId: hit?.id ?? null,
          primaryId: hit?.advisoryId ?? null,
          level: hit?.level ?? null,
          name: hit?.summary ?? null,
        };
      }));
    },

    async componentCheck({ body }) {
      const components = body.components ?? [];
      const purls = body.purls ?? [];
      if (components.length + purls.length === 0) throw new UserError(KB_MSG.componentsMissing);
      if (components.length + purls.length > MAX_COMPONENTS) throw new UserError(KB_MSG.tooManyComponents);
      const packages: PackageQuery[] = [
        ...components.map((c) => packageOf(c.ecosystem, c.name, c.version)),
        ...parsePackageUrls(purls, components.length + 1),
      ];
      const [index, known] = await Promise.all([getAdvisoryIndex(db), knownPackages(db, packages)]);
      return ok(matchComponents(index, packages).map(({ component, findings, risk }) => ({
        purl: component.purl,
        ecosystem: component.ecosystem,
        name: component.name,
        version: component.version,
        known: known.has(`${component.ecosystem}\0${component.name}`),
        findings: findings.length,
        risk,
        vulnerabilities: findings.map((f) => ({ id: f.id, level: f.level, fixedVersions: f.fixedVersions, fixState: f.fixState })),
      })));
    },
  };
}

/** The knowledge base's status (any signed-in user: the home page shows it) and its stale threshold. */
function statusHandlers({ db }: ServerContext): AreaHandlers<typeof kbStatusCalls> {
  return {
    async kbStatus() {
      return ok(await kbStatus(db));
    },

    async kbSettings({ request, body }) {
      const { userId } = signedIn(request);
      const before = await staleThreshold(db);
      await inTransaction(db, async (trx) => {
        await setStaleThreshold(trx, body.staleDays);
        await audit(trx, { userId, action: 'knowledge.staleDays.modified', detail: { from: before.days, to: body.staleDays } });
      });
      return ok(await kbStatus(db), ADMIN_SUCCESS_MESSAGES.saved);
    },
  };
}

export const knowledgeHandlers = (ctx: ServerContext): HandlerIndex =>
  new Map([...indexHandlers(knowledgeCalls, knowledgeAreaHandlers(ctx)), ...indexHandlers(kbStatusCalls, statusHandlers(ctx))]);
