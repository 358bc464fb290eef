// /login: server profile, username, password, 记住密码 (OS keychain). The password goes to main
// through desktop.session.login and is never kept by the renderer. After login: a user whose
// password must be changed goes to /changePassword, everyone else to their home screen.
import { useEffect, useState, type FormEvent } from 'react';
import { Button, Callout, Checkbox, FormGroup, H3, HTMLSelect, InputGroup, Spinner, SpinnerSize, Tooltip } from '@blueprintjs/core';
import { Navigate, useNavigate } from 'react-router';
import type { PlatformStatus, Profile } from '../../../contract/ipc/desktop-contract.ts';
import { AuthLayout } from '../../common/AuthLayout.tsx';
import { GuardedButton } from '../../common/GuardedButton.tsx';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { signIn } from '../../app/sessionFlows.ts';
import { sessionActions } from '../../app/sessionSlice.ts';
import { homeOf } from '../../app/router/guard.ts';
import { toastNotifier as notify } from '../../app/toaster.ts';
import {
  activeProfile,
  useActivateProfileMutation,
  useForgetPasswordMutation,
  usePlatformStatusQuery,
  useProfilesQuery,
  useRestartPlatformMutation,
  useSavedLoginQuery,
  useVaultStatusQuery,
} from '../../api/desktopApi.ts';
import { useIsLdapLoginQuery } from '../../api/ldapApi.ts';
import { PlatformStatusTag } from '../../app/shell/PlatformStatusTag.tsx';
import { zh } from '../../i18n/zh-CN.ts';

function LocalPlatformNotice({ status }: { status: PlatformStatus | undefined }) {
  const [restart, { isLoading }] = useRestartPlatformMutation();
  const [error, setError] = useState<string | null>(null);
  if (!status || status.state === 'running') return null;
  if (status.state === 'starting') {
    return (
      <Callout intent="primary" icon={<Spinner size={SpinnerSize.SMALL} />} className="cairn-login-notice">
        {zh.platform.startingBody}
      </Callout>
    );
  }
  return (
    <Callout intent="warning" title={zh.platform.notRunningTitle} className="cairn-login-notice">
      <p>{zh.platform.notRunningBody}</p>
      {status.message ? <p className="cairn-muted">{status.message}</p> : null}
      {error ? <p className="cairn-text-danger">{error}</p> : null}
      <Button
        icon="refresh"
        intent="warning"
        loading={isLoading}
        text={zh.platform.restart}
        onClick={() => {
          setError(null);
          restart()
            .unwrap()
            .catch((e: { message?: string }) => setError(e.message ?? zh.messages.requestFailed));
        }}
      />
    </Callout>
  );
}

/** 本机 / 本机（本机）-> the local profile's name once; remote profiles with their address. */
const profileLabel = (p: Profile): string =>
  p.kind === 'local' ? (p.name === zh.login.local ? p.name : `${p.name}（${zh.login.local}）`) : `${p.name} — ${p.url}`;

function ProfileField({ profiles, active, onChange, disabled }: { profiles: readonly Profile[]; active: Profile | undefined; onChange: (id: string) => void; disabled: boolean }) {
  const navigate = useNavigate();
  return (
    <FormGroup
      label={zh.login.server}
      labelFor="login-profile"
      labelInfo={
        <Button variant="minimal" size="small" icon="cog" className="cairn-label-action" text={zh.login.manageProfiles} onClick={() => navigate('/desktop/profiles')} />
      }
    >
      <div className="cairn-profile-row">
        <HTMLSelect
          id="login-profile"
          fill
          disabled={disabled}
          value={active?.id ?? ''}
          onChange={(e) => onChange(e.currentTarget.value)}
          options={profiles.map((p) => ({ value: p.id, label: profileLabel(p) }))}
        />
        {active?.kind === 'local' ? <PlatformStatusTag /> : null}
      </div>
    </FormGroup>
  );
}

export default function LoginScreen() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const session = useAppSelector((s) => s.session);
  const profiles = useProfilesQuery();
  const saved = useSavedLoginQuery();
  const vault = useVaultStatusQuery();
  const platform = usePlatformStatusQuery();
  const [activate, activation] = useActivateProfileMutation();
  const [forget] = useForgetPasswordMutation();

  const active = activeProfile(profiles.data);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  const [remember, setRemember] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState<{ username?: string; password?: string }>({});
  const [submitting, setSubmitting] = useState(false);

  // Prefill from what main remembers for the active profile.
  useEffect(() => {
    if (!saved.data) return;
    setUsername(saved.data.username ?? '');
    setRemember(saved.data.hasPassword);
    setPassword('');
  }, [saved.data]);

  // The platform's isLdapLogin switch: directory accounts may sign in here too (a hint; the platform decides).
  const platformDown = active?.kind === 'local' && platform.data !== undefined && platform.data.state !== 'running';
  const ldapLogin = useIsLdapLoginQuery(undefined, { skip: !active || platformDown || session.status === 'authenticated', refetchOnMountOrArgChange: true });

  const endedReason = session.endedReason;
  if (session.status === 'authenticated' && session.user) {
    return <Navigate to={session.user.updatedPwd ? homeOf(session) : '/changePassword'} replace />;
  }

  const vaultAvailable = vault.data?.available ?? false;
  const canUseSaved = !!saved.data?.hasPassword && password === '' && username === (saved.data?.username ?? '');
  const localDown = platformDown;
  const ldapHint = ldapLogin.data === true && !ldapLogin.isError ? zh.ldap.loginHint : undefined;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const errs: { username?: string; password?: string } = {};
    if (!username.trim()) errs.username = zh.login.usernameRequired;
    if (!password && !canUseSaved) errs.password = zh.login.passwordRequired;
    setFieldError(errs);
    if (errs.username || errs.password) return;
    setError(null);
    setSubmitting(true);
    const outcome = await dispatch(
      signIn({ username: username.trim(), ...(password ? { password } : {}), remember: remember && vaultAvailable }),
    );
    setSubmitting(false);
    setPassword('');
    if (!outcome.ok) {
      setError(outcome.message);
      return;
    }
    if (outcome.vaultWarning) notify.warning(outcome.vaultWarning);
  };

  const changeProfile = (id: string) => {
    setError(null);
    dispatch(sessionActions.endedReasonShown());
    activate({ id })
      .unwrap()
      .catch((e: { message?: string }) => setError(e.message ?? zh.messages.requestFailed));
  };

  return (
    <AuthLayout footer={zh.login.footer}>
      <div className="cairn-auth-heading">
        <H3>{zh.login.title}</H3>
        <div className="cairn-muted">{zh.login.welcome}</div>
      </div>

      {endedReason ? (
        <Callout intent="warning" icon="time" className="cairn-login-notice">
          {endedReason}
        </Callout>
      ) : null}

      {profiles.isError ? (
        <Callout intent="danger" className="cairn-login-notice">
          {zh.profiles.loadFailed}：{profiles.error.message}
        </Callout>
      ) : null}

      <form onSubmit={(e) => void submit(e)} noValidate>
        <ProfileField profiles={profiles.data?.profiles ?? []} active={active} onChange={changeProfile} disabled={activation.isLoading || submitting} />
        {active?.kind === 'local' ? <LocalPlatformNotice status={platform.data} /> : null}

        <FormGroup label={zh.login.username} labelFor="login-username" intent={fieldError.username ? 'danger' : 'none'} helperText={fieldError.username ?? ldapHint}>
          <InputGroup
            id="login-username"
            size="large"
            leftIcon="user"
            autoComplete="username"
            autoFocus
            placeholder={zh.login.usernamePlaceholder}
            value={username}
            maxLength={100}
            intent={fieldError.username ? 'danger' : 'none'}
            onValueChange={(v) => setUsername(v)}
          />
        </FormGroup>

        <FormGroup label={zh.login.password} labelFor="login-password" intent={fieldError.password ? 'danger' : 'none'} helperText={fieldError.password}>
          <InputGroup
            id="login-password"
            size="large"
            leftIcon="lock"
            type={showPassword ? 'text' : 'password'}
            autoComplete="current-password"
            placeholder={canUseSaved ? zh.login.savedPasswordPlaceholder : zh.login.passwordPlaceholder}
            value={password}
            maxLength={200}
            intent={fieldError.password ? 'danger' : 'none'}
            onValueChange={(v) => setPassword(v)}
            rightElement={
              <Tooltip content={showPassword ? zh.app.hidePassword : zh.app.showPassword}>
                <Button variant="minimal" icon={showPassword ? 'eye-off' : 'eye-open'} aria-label={showPassword ? zh.app.hidePassword : zh.app.showPassword} onClick={() => setShowPassword(!showPassword)} />
              </Tooltip>
            }
          />
        </FormGroup>

        <div className="cairn-login-options">
          <Tooltip content={vaultAvailable ? zh.login.rememberHint : `${zh.login.vaultUnavailable}：${vault.data?.message ?? ''}`} placement="top-start">
            <Checkbox label={zh.login.remember} checked={remember && vaultAvailable} disabled={!vaultAvailable} onChange={(e) => setRemember(e.currentTarget.checked)} className="cairn-remember" />
          </Tooltip>
          {saved.data?.hasPassword ? (
            <Button
              variant="minimal"
              size="small"
              text={zh.login.forget}
              onClick={() =>
                forget()
                  .unwrap()
                  .then(() => notify.success(zh.login.forgotten))
                  .catch((e: { message?: string }) => setError(e.message ?? zh.messages.requestFailed))
              }
            />
          ) : null}
        </div>
        {vault.data && !vault.data.available ? (
          <div className="cairn-helper cairn-text-warning">
            {zh.login.vaultUnavailable}：{vault.data.message}
          </div>
        ) : null}

        {error ? (
          <Callout intent="danger" icon="error" className="cairn-login-error">
            {error}
          </Callout>
        ) : null}

        <GuardedButton type="submit" intent="primary" size="large" fill loading={submitting} disabled={localDown || !active} text={zh.login.submit} className="cairn-login-submit" />
      </form>

      {/* Public screens: they read only this machine's files, so they work with no server at all. */}
      <div className="cairn-login-library" style={{ marginTop: 12, display: 'flex', justifyContent: 'center' }}>
        <Tooltip content={zh.library.entryHint} placement="bottom">
          <Button variant="minimal" icon="archive" text={zh.library.entry} onClick={() => navigate('/desktop/library')} data-testid="login-library" />
        </Tooltip>
      </div>
    </AuthLayout>
  );
}
