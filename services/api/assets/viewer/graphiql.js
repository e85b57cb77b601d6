// Starts GraphiQL on the page `GET /graphql` gives a browser. A file rather than an inline
// script: the page's Content-Security-Policy runs this origin's files only. The query it
// opens with comes from the page, as text in `data-query`.
(function start() {
  const root = document.getElementById('graphiql');
  const ws = `${location.protocol === 'https:' ? 'wss://' : 'ws://'}${location.host}/graphql/ws`;
  const fetcher = GraphiQL.createFetcher({ url: '/graphql', subscriptionUrl: ws });
  ReactDOM.createRoot(root).render(
    React.createElement(GraphiQL, { fetcher, defaultQuery: root.dataset.query || '', defaultEditorToolsVisibility: true }),
  );
}());
