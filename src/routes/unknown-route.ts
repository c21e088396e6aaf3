import { editDistance } from '../catalog/aliases';
import { GatewayError } from '../errors';
import { honoPath } from './lazy';
import { LAZY_ROUTES } from './lazy/table';

/** The `/v1` routes served outside the lazy table (plain routes). */
const PLAIN_V1 = [['get', '/v1/models']] as const;

/** How many served routes a 404 names. */
const SUGGESTIONS = 3;

/** Every served `/v1` route as `METHOD /path/{param}`. */
const servedV1 = () => [...PLAIN_V1, ...LAZY_ROUTES.map(([, method, path]) => [method, path] as const)].filter(([, path]) => path.startsWith('/v1/')).map(([method, path]) => `${method.toUpperCase()} ${path}`);

/** How far a request is from a served route: the path's distance, with parameters matching any one segment, and a wrong method costs a little. */
function distance(method: string, path: string, route: string): number {
  const [routeMethod, routePath] = route.split(' ') as [string, string];
  const pattern = new RegExp(`^${honoPath(routePath).replaceAll(/:[^/]+/g, '[^/]+')}$`);
  const pathDistance = pattern.test(path) ? 0 : editDistance(path, routePath);
  return pathDistance + (routeMethod === method ? 0 : 2);
}

/**
 * The 404 of a request no route matched. Under `/v1` it names the closest served routes, so a
 * client that guessed a path or a method learns what is served (the OpenAPI document lists all).
 */
export function unknownRoute(method: string, path: string): GatewayError {
  const asked = `${method} ${path.length > 200 ? `${path.slice(0, 200)}…` : path}`;
  if (!path.startsWith('/v1/') && path !== '/v1') return new GatewayError('not_found', `No route for ${asked}.`);
  const closest = servedV1()
    .map((route) => ({ route, d: distance(method, path.slice(0, 200), route) }))
    .sort((a, b) => a.d - b.d)
    .slice(0, SUGGESTIONS)
    .map(({ route }) => route);
  return new GatewayError('not_found', `No route for ${asked}. Closest served: ${closest.join(', ')}; GET /openapi.json lists every route.`);
}
