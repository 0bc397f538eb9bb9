// CSS modules (Vite): a component's own styles, class names scoped to it.
declare module '*.module.css' {
  const classes: Record<string, string>;
  export default classes;
}
