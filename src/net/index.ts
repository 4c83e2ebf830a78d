// The net folder's public face: the Host/Origin/token guard every ghostwire listener shares.
export { isLoopback, hostName, mintToken, listenerToken, ListenerGuard } from './listener-guard.ts';
export type { ListenerGuardOptions, ListenerRefusal, GuardedHeaders } from './listener-guard.ts';
export { LISTENER_CHANNEL, announceListener } from './listener-channel.ts';
export type { ListenerMessage } from './listener-channel.ts';
