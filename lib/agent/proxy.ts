// The model endpoint reached through the proxy the environment names, as curl reaches it: http_proxy, HTTPS_PROXY, ALL_PROXY and NO_PROXY (either case), by undici's environment-aware agent.
import type { EnvHttpProxyAgent } from 'undici';

/** The proxies an environment names, curl's way: the lower-case name first (curl reads only http_proxy), ALL_PROXY for either scheme. */
export interface Proxies {
  httpProxy: string;
  httpsProxy: string;
  noProxy: string;
}

const named = (env: NodeJS.ProcessEnv, name: string): string => env[name.toLowerCase()] || env[name.toUpperCase()] || '';

/** The proxies `env` names; null when it names none. */
export function proxiesOf(env: NodeJS.ProcessEnv): Proxies | null {
  const all = named(env, 'all_proxy');
  const httpProxy = env.http_proxy || env.HTTP_PROXY || all;
  const httpsProxy = named(env, 'https_proxy') || httpProxy;
  if (!httpProxy && !httpsProxy) return null;
  return { httpProxy, httpsProxy, noProxy: named(env, 'no_proxy') };
}

let active: { proxies: Proxies; agent: EnvHttpProxyAgent } | null = null;

/**
 * Sends every request forge makes to a model endpoint through the proxies `env` names (none: as
 * before, directly). Values are passed to the agent, never read by it from this process's
 * environment: `env` is the command's.
 */
export async function useProxiesOf(env: NodeJS.ProcessEnv): Promise<void> {
  const proxies = proxiesOf(env);
  if (!proxies || JSON.stringify(proxies) === JSON.stringify(active?.proxies)) return;
  const { EnvHttpProxyAgent, setGlobalDispatcher } = await import('undici');
  const agent = new EnvHttpProxyAgent(proxies);
  setGlobalDispatcher(agent);
  active = { proxies, agent };
}

/** The proxy a request to `url` goes through now, for a message that explains a failure; null when it goes directly. */
export function proxyFor(url: string): string | null {
  if (!active) return null;
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return null;
  }
  const proxy = target.protocol === 'https:' ? active.proxies.httpsProxy : active.proxies.httpProxy;
  return proxy && !bypassed(target, active.proxies.noProxy) ? proxy : null;
}

/** Whether NO_PROXY lists the host (`*`, a host, a .domain or a domain suffix, with or without :port), as undici decides it. */
function bypassed(target: URL, noProxy: string): boolean {
  const host = target.hostname.toLowerCase();
  const port = target.port || (target.protocol === 'https:' ? '443' : '80');
  return noProxy
    .split(/[,\s]+/)
    .filter(Boolean)
    .some((entry) => {
      if (entry === '*') return true;
      const [name, entryPort] = entry.toLowerCase().split(/:(?=\d+$)/);
      if (entryPort && entryPort !== port) return false;
      const bare = name!.replace(/^\*?\./, '');
      return host === bare || host.endsWith(`.${bare}`);
    });
}
