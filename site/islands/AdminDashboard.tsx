/**
 * /admin (issue 7; spec 1 and 7 admin login): the admin's own sign-in, then the operator's
 * dashboard. The admin session lives in sessionStorage['adminToken'], apart from the user's
 * authToken, so this page never signs anyone in on the site. Any 401 from an admin call comes
 * back here to the sign-in form with SESSION_ENDED.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { AdminIdentity } from '../../shared/api/admin.ts';
import {
  SESSION_ENDED,
  getAdminIdentity,
  onAdminSessionEnded,
  readAdminToken,
  signOutAdmin,
} from '../lib/api/admin.ts';
import { apiErrorMessage } from '../lib/api/http.ts';
import * as icons from '../lib/icons/index.ts';
import { ActionDialogProvider } from './admin/ActionDialog.tsx';
import AuditLogView from './admin/AuditLogView.tsx';
import Overview from './admin/Overview.tsx';
import PaymentsView from './admin/PaymentsView.tsx';
import { SECTIONS, sectionHref, useAdminRoute, type AdminRoute } from './admin/route.ts';
import SignIn from './admin/SignIn.tsx';
import TasksView from './admin/TasksView.tsx';
import UsersView from './admin/UsersView.tsx';
import WebhooksView from './admin/WebhooksView.tsx';
import LoadingScreen from './LoadingScreen.tsx';
import Icon from './shared/Icon.tsx';

const SIGNED_OUT = 'You have signed out of the admin dashboard.';
const CHECK_FAILED = 'Could not check your admin session. Check the connection and try again.';

type Auth =
  | { status: 'checking' }
  | { status: 'unreachable'; message: string }
  | { status: 'signed-out'; notice: string }
  | { status: 'signed-in'; admin: AdminIdentity };

function View({ route }: { route: AdminRoute }) {
  switch (route.section) {
    case 'users':
      return <UsersView userId={route.userId} />;
    case 'tasks':
      return <TasksView />;
    case 'payments':
      return <PaymentsView />;
    case 'webhooks':
      return <WebhooksView />;
    case 'audit':
      return <AuditLogView />;
    default:
      return <Overview />;
  }
}

function Dashboard({ admin, onSignOut }: { admin: AdminIdentity; onSignOut: () => void }) {
  const route = useAdminRoute();
  const viewRef = useRef<HTMLDivElement>(null);
  const [signingOut, setSigningOut] = useState(false);
  const routeKey = `${route.section}/${route.userId ?? ''}`;
  const firstRoute = useRef(routeKey);

  // After the admin picks another view, move focus to its heading so a screen reader announces
  // it and Tab continues from there; the first view after sign-in keeps focus where it is.
  useEffect(() => {
    if (firstRoute.current === routeKey) return;
    firstRoute.current = '';
    const frame = requestAnimationFrame(() => {
      // A view still loading has no heading yet: its container takes focus instead.
      const target = document.getElementById('admin-view-title') ?? viewRef.current;
      target?.focus({ preventScroll: true });
    });
    return () => cancelAnimationFrame(frame);
  }, [routeKey]);

  const signOut = async () => {
    setSigningOut(true);
    await signOutAdmin();
    onSignOut();
  };

  return (
    <ActionDialogProvider fallbackFocusRef={viewRef}>
      <div className="admin">
        <header className="admin__bar">
          <div>
            <p className="admin__eyebrow">Operator tools</p>
            <h1 className="admin__title">Admin</h1>
          </div>
          <div className="admin__who">
            <p>
              Signed in as <strong data-testid="admin-username">{admin.username}</strong>
            </p>
            <button
              type="button"
              className="btn btn-secondary btn-sm"
              onClick={() => void signOut()}
              disabled={signingOut}
            >
              <Icon icon={icons.arrowIntoDoor} />
              Sign out
            </button>
          </div>
        </header>

        <div className="admin__layout">
          <nav className="admin-nav" aria-label="Admin sections">
            <ul role="list">
              {SECTIONS.map((section) => (
                <li key={section.id}>
                  <a
                    className="admin-nav__link"
                    href={sectionHref(section.id)}
                    aria-current={route.section === section.id ? 'page' : undefined}
                  >
                    {section.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
          <div className="admin__view" ref={viewRef} tabIndex={-1}>
            <View route={route} />
          </div>
        </div>
      </div>
    </ActionDialogProvider>
  );
}

export default function AdminDashboard() {
  const [auth, setAuth] = useState<Auth>({ status: 'checking' });
  const [attempt, setAttempt] = useState(0);

  // A token from earlier in this tab is checked with the server before the dashboard shows.
  useEffect(() => {
    let active = true;
    const check = readAdminToken()
      ? getAdminIdentity().then(
          (admin): Auth => ({ status: 'signed-in', admin }),
          (error: unknown): Auth | null => {
            // A 401 is reported by onAdminSessionEnded, which shows SESSION_ENDED.
            if (readAdminToken() === null) return null;
            console.error('[admin] session check failed', error);
            return { status: 'unreachable', message: apiErrorMessage(error, CHECK_FAILED) };
          },
        )
      : Promise.resolve<Auth>({ status: 'signed-out', notice: '' });
    void check.then((next) => {
      if (active && next) setAuth(next);
    });
    return () => {
      active = false;
    };
  }, [attempt]);

  useEffect(
    () => onAdminSessionEnded(() => setAuth({ status: 'signed-out', notice: SESSION_ENDED })),
    [],
  );

  const onSignedIn = useCallback((admin: AdminIdentity) => {
    setAuth({ status: 'signed-in', admin });
    // Land on the view in the address, at the top of the page.
    window.scrollTo({ top: 0 });
  }, []);

  switch (auth.status) {
    case 'checking':
      // The page's one heading in its HTML, until the sign-in form or the dashboard shows theirs.
      return (
        <>
          <h1 className="sr-only">Admin</h1>
          <LoadingScreen />
        </>
      );
    case 'unreachable':
      return (
        <div className="admin-state admin-state--page admin-state--error">
          <p role="alert">{auth.message}</p>
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => {
              setAuth({ status: 'checking' });
              setAttempt((n) => n + 1);
            }}
          >
            Retry
          </button>
        </div>
      );
    case 'signed-out':
      return <SignIn notice={auth.notice} onSignedIn={onSignedIn} />;
    default:
      return (
        <Dashboard
          admin={auth.admin}
          onSignOut={() => setAuth({ status: 'signed-out', notice: SIGNED_OUT })}
        />
      );
  }
}
