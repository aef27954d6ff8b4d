/**
 * The site's only client scripts: two small progressive enhancements, inlined into the pages that
 * use them and allowed by the CSP by their SHA-256 hashes (shared/security.ts), so the policy keeps
 * `script-src 'self'` with no 'unsafe-inline' and no extra route serves them. Every page works
 * without them.
 *
 * - VIEWER: a prerendered page cannot know its visitor, so, when the `civitas_signed_in` hint cookie
 *   says a session was started in this browser (api/plugins/session.ts), it asks `GET /identity`
 *   (JSON, `private, no-store`) and, when someone is signed in, puts their tag and callsign in the
 *   header. Anonymous visitors cost no request; the page itself stays cacheable (no cookie, no Vary
 *   added to it for this).
 * - COPY: a `button[data-copy=<id>]` (hidden until this runs) copies its `data-copy-text`, else the
 *   text of element <id>, to the clipboard and says so in its `[data-copy-status]` live region. The Base
 *   layout inlines it on every page that has such a button.
 */
import { createHash } from 'node:crypto';

export const VIEWER_SCRIPT = `(()=>{const slot=document.querySelector('[data-viewer]');
if(!slot||!/(^|; )civitas_signed_in=1/.test(document.cookie))return;
fetch('/identity',{headers:{accept:'application/json'},credentials:'same-origin',cache:'no-store'})
.then((r)=>r.ok&&(r.headers.get('content-type')||'').includes('json')?r.json():null)
.then((me)=>{if(!me||!me.signed_in||!me.tag)return;
const label=document.createElement('span');label.textContent='Signed in as';
const link=document.createElement('a');link.href='/sovereign';
const tag=document.createElement('span');tag.className='tag';tag.textContent=me.tag;link.append(tag);
if(me.callsign)link.append(' '+me.callsign);slot.replaceChildren(label,' ',link);})
.catch(()=>{});})();`;

export const COPY_SCRIPT = `(()=>{for(const button of document.querySelectorAll('button[data-copy]')){
const source=document.getElementById(button.dataset.copy);const status=button.parentElement.querySelector('[data-copy-status]');
const text=button.dataset.copyText||(source&&source.textContent.trim());
if(!text||!navigator.clipboard)continue;button.hidden=false;
button.addEventListener('click',()=>{navigator.clipboard.writeText(text)
.then(()=>{if(status)status.textContent='Copied to the clipboard.';})
.catch(()=>{if(status)status.textContent='Could not copy: select it and copy it by hand.';});});}})();`;

const hash = (script: string) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`;

/** CSP source expressions for the scripts above. */
export const SITE_SCRIPT_HASHES = [hash(VIEWER_SCRIPT), hash(COPY_SCRIPT)];
