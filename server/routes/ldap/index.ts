// 目录登录 area (spec doc 2 §7: GET /api/ldapConfig, POST or PUT /api/ldapConfig[/{id}],
// POST /ldapConfig/testLogin; isLdapLogin among the login-exempt paths): every handler of
// contract/api/ldap.ts. Commands are in server/services/ldap.ts.
import { ldapCalls } from '../../../contract/api/ldap.ts';
import { ADMIN_SUCCESS_MESSAGES } from '../../../contract/errors.ts';
import { ok } from '../../../contract/envelope.ts';
import type { ServerContext } from '../../context.ts';
import { ldapChoices } from '../../db/repositories/ldap-config.ts';
import { createLdapConfig, editLdapConfig, isLdapLoginEnabled, ldapConfig, testLdapLogin } from '../../services/ldap.ts';
import { indexHandlers, signedIn, type AreaHandlers, type HandlerIndex } from '../register.ts';

type Handlers = AreaHandlers<typeof ldapCalls>;

const LDAP_TEST_PASSED = '测试登录成功';

function ldapAreaHandlers({ db, dataDir }: ServerContext): Handlers {
  return {
    async get() {
      return ok(await ldapConfig(db));
    },

    async create({ request, body }) {
      return ok(await createLdapConfig(db, dataDir, signedIn(request).userId, body, request.ip), ADMIN_SUCCESS_MESSAGES.saved);
    },

    async update({ request, params, body }) {
      return ok(await editLdapConfig(db, dataDir, signedIn(request).userId, params.id, body, request.ip), ADMIN_SUCCESS_MESSAGES.saved);
    },

    async testLogin({ request, body }) {
      return ok(await testLdapLogin(db, dataDir, signedIn(request).userId, body, request.ip), LDAP_TEST_PASSED);
    },

    async choices() {
      return ok(await ldapChoices(db));
    },

    async isLdapLogin() {
      return ok(await isLdapLoginEnabled(db));
    },
  };
}

export const ldapHandlers = (ctx: ServerContext): HandlerIndex => indexHandlers(ldapCalls, ldapAreaHandlers(ctx));
