// Component area: the recommended upgrade of a component, from the knowledge base's advisories
// (`{id}` is a purl; a numeric id, a component row of a task result, is not read there), and which
// projects of each product use a component version (组件影响: `{id}` a purl or a component row id).
import { componentCalls } from '../../../contract/api/component.ts';
import { ok } from '../../../contract/envelope.ts';
import { PRODUCT } from '../../../contract/enums.ts';
import { projectsWithComponent } from '../../db/repositories/involved.ts';
import { accessibleComponent } from '../../db/repositories/results.ts';
import type { Paging } from '../../db/repositories/vulnerabilities.ts';
import type { Db } from '../../db/transaction.ts';
import type { ServerContext } from '../../context.ts';
import { matchPackage, recommendVersion, type AdvisoryIndex } from '../../engine/index.ts';
import { UserError } from '../../errors.ts';
import { getAdvisoryIndex } from '../../kb/index-cache.ts';
import { KB_MSG } from '../../kb/messages.ts';
import { parsePackageUrl, parsePackageUrls, type PackageQuery } from '../../kb/packages.ts';
import { indexHandlers, signedIn, type AreaHandlers, type HandlerIndex } from '../register.ts';
import { pagingOf, visibleSubjectsOf } from '../shared.ts';
import type { FastifyRequest } from 'fastify';

function recommendation(index: AdvisoryIndex, pkg: PackageQuery) {
  const findings = pkg.version ? matchPackage(index, pkg).length : 0;
  const { version, reason } = recommendVersion(index, pkg);
  return { purl: pkg.purl, ecosystem: pkg.ecosystem, name: pkg.name, version: pkg.version, recommendVersion: version, reason, findings };
}

/**
 * The purl (no qualifiers or subpath) `{id}` names: a component row of a task result the user may
 * see, or a purl as written.
 */
async function influencePurl(db: Db, request: FastifyRequest, id: string): Promise<string> {
  const text = id.trim();
  const purl = /^\d+$/.test(text) ? (await accessibleComponent(db, signedIn(request).userId, Number(text))).component.purl : parsePackageUrl(text).purl;
  return purl.split('#')[0]!.split('?')[0]!;
}

async function influence(db: Db, request: FastifyRequest, id: string, paging: Paging, product: number) {
  return projectsWithComponent(db, await visibleSubjectsOf(db, request), await influencePurl(db, request, id), product, paging);
}

function componentAreaHandlers({ db }: ServerContext): AreaHandlers<typeof componentCalls> {
  return {
    async influence({ request, params, query }) {
      return ok(await influence(db, request, params.id, pagingOf(query), PRODUCT.SOURCE));
    },

    async binaryInfluence({ request, params, query }) {
      return ok(await influence(db, request, params.id, pagingOf(query), PRODUCT.BINARY));
    },

    async recommendVersion({ params }) {
      // A numeric id names a component row of a task result, which this call does not read.
      if (/^\d+$/.test(params.id.trim())) throw new UserError(KB_MSG.componentNotFound, 'not-found');
      const pkg = parsePackageUrl(params.id);
      return ok(recommendation(await getAdvisoryIndex(db), pkg));
    },

    async bulkGetRecommendVersion({ body }) {
      const packages = parsePackageUrls(body.purls);
      const index = await getAdvisoryIndex(db);
      return ok(packages.map((pkg) => recommendation(index, pkg)));
    },
  };
}

export const componentHandlers = (ctx: ServerContext): HandlerIndex => indexHandlers(componentCalls, componentAreaHandlers(ctx));
