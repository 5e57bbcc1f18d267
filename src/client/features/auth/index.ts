export { getSocketToken } from "./api/get-socket-token";
export { LoginScreen } from "./components/login-screen";
export { AuthProvider, type AuthState, type AuthStatus, NO_PERMISSIONS, useAuth } from "./hooks/use-auth";
export { ROLE_COLORS, ROLE_ICONS, RoleLabel } from "./role-display";
