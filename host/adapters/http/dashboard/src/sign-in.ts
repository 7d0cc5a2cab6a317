// The arbiter's sign-in on the dashboard (/). Signed out: the token field and Sign in. Signed in:
// the field is gone; the header says who is signed in, with Sign out. A 401 from any call (a
// revoked token) signs out, saying why.
import { api, onUnauthorized, setToken } from './api.ts';
import { setText } from './dom.ts';

/** What the page does besides the header as the arbiter signs in or out. */
export interface SignInHooks {
  /** The token was taken: an arbiter is signed in. */
  readonly signedIn: () => void;
  /** The arbiter signed out (or the token was refused). */
  readonly signedOut: () => void;
}

/** Wires the token form and Sign out into the page; answers the sign-in with a token (the one stored, at start). */
export function mountSignIn(hooks: SignInHooks): (candidate: string) => Promise<void> {
  let signedIn = false;

  function showSignedIn(arbiter: string | null, note: string): void {
    signedIn = arbiter !== null;
    document.body.classList.toggle('arbiter', signedIn);
    document.getElementById('token-form')!.hidden = signedIn;
    setText(document.getElementById('arbiter'), signedIn ? `arbiter: ${arbiter}` : note);
    document.getElementById('arbiter')!.dataset.kind = signedIn ? 'ok' : note ? 'error' : '';
    document.getElementById('sign-out')!.hidden = !signedIn;
    if (!signedIn) hooks.signedOut();
  }

  function signOut(reason: string): void {
    setToken('', false);
    showSignedIn(null, reason);
  }

  async function signIn(candidate: string): Promise<void> {
    setToken(candidate, false);
    try {
      const { arbiter } = await api<{ arbiter: string }>('GET', '/api/arbiter');
      setToken(candidate, true);
      showSignedIn(arbiter, '');
      hooks.signedIn();
    } catch (err) {
      signOut((err as Error).message);
    }
  }

  document.getElementById('token-form')!.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const input = document.getElementById('token') as HTMLInputElement;
    void signIn(input.value.trim());
    input.value = '';
  });
  document.getElementById('sign-out')!.addEventListener('click', () => signOut(''));
  onUnauthorized((reason) => {
    if (signedIn) signOut(`signed out: ${reason}`);
  });
  return signIn;
}
