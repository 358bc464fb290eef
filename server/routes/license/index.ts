// Licence area (spec doc 2 §7 "Licence"): the licence knowledge base list and details, the
// administrators' level settings, and the knowledge-base licence check. Every handler of
// contract/api/license.ts.
import { licenseCalls } from '../../../contract/api/license.ts';
import { ok } from '../../../contract/envelope.ts';
import { PRODUCT } from '../../../contract/enums.ts';
import type { ServerContext } from '../../context.ts';
import { projectsUsingLicense } from '../../db/repositories/involved.ts';
import { levelsOf, listLicenses, toLicenseRow } from '../../db/repositories/licenses.ts';
import { visibleSubjectIds } from '../../db/repositories/subject-access.ts';
import { expressionIds, expressionLevel, LEVEL_UNKNOWN, licenseText, normalizeDeclared, type Level } from '../../engine/index.ts';
import { LICENSE_MSG, changeLicenseLevel, licenseOf } from '../../services/licenses.ts';
import { indexHandlers, signedIn, type AreaHandlers, type HandlerIndex } from '../register.ts';
import { pagingOf } from '../shared.ts';

function licenseAreaHandlers({ db }: ServerContext): AreaHandlers<typeof licenseCalls> {
  return {
    async list({ query, body }) {
      return ok(await listLicenses(db, body, pagingOf(query)));
    },

    async detail({ params }) {
      const row = await licenseOf(db, params.id);
      return ok({
        ...toLicenseRow(row),
        url: row.url,
        attributes: row.attributes ? JSON.parse(row.attributes) : null,
        text: licenseText(row.spdx_id),
        updatedAt: row.updated_at,
      });
    },

    async involvedSubjects({ request, params, query }) {
      const row = await licenseOf(db, params.id);
      const { userId } = signedIn(request);
      return ok(await projectsUsingLicense(db, await visibleSubjectIds(db, userId), row.spdx_id, pagingOf(query)));
    },

    async binaryInfluence({ request, params, query }) {
      const row = await licenseOf(db, params.id);
      const { userId } = signedIn(request);
      return ok(await projectsUsingLicense(db, await visibleSubjectIds(db, userId), row.spdx_id, pagingOf(query), PRODUCT.BINARY));
    },

    async systemList({ query }) {
      const { page, size, ...filter } = query ?? {};
      return ok(await listLicenses(db, { ...filter, includeDeprecated: true, includeExceptions: false }, pagingOf({ page, size })));
    },

    async systemEdit({ request, body }) {
      return ok(await changeLicenseLevel(db, signedIn(request).userId, body.id, body.level), LICENSE_MSG.edited);
    },

    async check({ body }) {
      const normalised = body.licenses.map((input) => ({ input, expression: normalizeDeclared(input) }));
      const ids = [...new Set(normalised.flatMap((n) => (n.expression ? expressionIds(n.expression) : [])))];
      const levels = await levelsOf(db, ids);
      return ok(normalised.map(({ input, expression }) => {
        const parts = expression ? expressionIds(expression) : [];
        // Rated as a run rates a component: AND the strictest, OR the freest choice.
        const level: Level = expression ? expressionLevel(expression, (id) => levels.get(id) ?? LEVEL_UNKNOWN) : LEVEL_UNKNOWN;
        return { input, expression, known: parts.filter((id) => levels.has(id)), unknown: parts.filter((id) => !levels.has(id)), level };
      }));
    },
  };
}

export const licenseHandlers = (ctx: ServerContext): HandlerIndex => indexHandlers(licenseCalls, licenseAreaHandlers(ctx));
