// Starts Swagger UI (loaded from /api/docs/assets, never a CDN) on the OpenAPI document.
const root = document.getElementById("swagger-ui");
window.ui = window.SwaggerUIBundle({
  url: root.dataset.spec,
  dom_id: "#swagger-ui",
  deepLinking: true,
  presets: [window.SwaggerUIBundle.presets.apis],
  layout: "BaseLayout",
});
