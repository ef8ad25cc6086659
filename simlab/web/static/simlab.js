// simlab's page: the answer region always shows the answer to the inputs on screen, a "working"
// state with progress, or the error line with its field marked; never an older answer as if current.
"use strict";

window.simlab = (() => {
  let polling = null;

  const answer = () => document.getElementById("answer");

  /** Mark the field a message is about (and no other). */
  function markField(name) {
    document.querySelectorAll(".field-error").forEach(element => element.classList.remove("field-error"));
    const field = name && document.getElementById("f-" + name);
    if (field && field.parentElement) { field.parentElement.classList.add("field-error"); }
  }

  /** The line ``id`` at the top of the answer region (made on first use), saying ``text``. */
  function lineAtTop(region, id, className, role, text) {
    let line = document.getElementById(id);
    if (!line) {
      line = document.createElement("p");
      line.id = id;
      line.className = className;
      line.setAttribute("role", role);
      region.prepend(line);
    }
    line.textContent = text;
    return line;
  }

  /** Grey the answer on screen and say why it is not the answer to the inputs. */
  function stale(message, field) {
    const region = answer();
    if (!region) { return; }
    region.classList.add("stale");
    region.classList.remove("working");
    lineAtTop(region, "invalid", "error", "alert", message);
    markField(field);
  }

  /** The address of this page for a copy: what is on screen, as a link anyone can open. */
  function copyLink(button) {
    const link = button.parentElement.querySelector("a#link") || button.nextElementSibling;
    const address = new window.URL(link.getAttribute("href"), window.location.href).href;
    const done = () => { button.textContent = "copied"; };
    const fallback = () => {
      const box = document.createElement("textarea");
      box.value = address;
      document.body.append(box);
      box.select();
      document.execCommand("copy");
      box.remove();
      done();
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(address).then(done, fallback);
    } else {
      fallback();
    }
  }

  // Blank fields mean "the default": they are left out of the request, and so of the address it pushes.
  // Several options chosen in a list travel as one value, separated by commas.
  document.addEventListener("htmx:configRequest", event => {
    const data = event.detail.formData;
    if (!data) { return; }
    for (const key of Array.from(new Set(data.keys()))) {
      const values = data.getAll(key).filter(value => value !== "");
      data.delete(key);
      if (values.length) { data.append(key, values.join(",")); }
    }
  });

  // Choosing which input varies changes the form itself (its list of options): the whole page follows.
  document.addEventListener("change", event => {
    if (event.target.dataset && event.target.dataset.reload) {
      event.stopPropagation();
      const form = event.target.form;
      const query = new URLSearchParams();
      for (const [key, value] of new FormData(form)) {
        if (value !== "" && !(key === "options" || key === "values" || key === "series_values")) { query.append(key, value); }
      }
      window.location.assign(form.getAttribute("action") + "?" + query.toString());
    }
  }, true);

  // A value the browser rejects (a negative range, 100 figures where 64 is the most) stops the request:
  // say so where the answer is, and grey the answer, which is no longer the answer to the inputs.
  document.addEventListener("htmx:validation:halted", event => {
    const errors = (event.detail && event.detail.errors) || [];
    const first = errors[0];
    if (!first) { return; }
    const name = first.elt.name || first.elt.id.replace(/^f-/, "");
    stale(`${name}: ${first.message || first.elt.validationMessage}`, name);
  });

  // While an answer is computed the old one is greyed, and a line at its top says how far the work has got.
  document.addEventListener("htmx:beforeRequest", () => {
    const region = answer();
    if (!region) { return; }
    region.classList.add("working");
    const line = lineAtTop(region, "progress", "progress", "status", "working…");
    const beside = document.getElementById("working");
    polling = setInterval(async () => {
      try {
        const status = await (await fetch("/api/status")).json();
        if (status.trials_done.length && status.trials_done[0] > 0) {
          const text = `sampling: ${status.trials_done[0].toLocaleString()} trials so far…`;
          line.textContent = text;
          if (beside) { beside.textContent = text; }
        }
      } catch (error) { /* the next poll tries again */ }
    }, 300);
  });
  document.addEventListener("htmx:afterRequest", () => { clearInterval(polling); polling = null; });

  // A 400 is an answer too: the one-line message takes the place of the answer, its field marked.
  document.addEventListener("htmx:beforeSwap", event => {
    if (event.detail.xhr.status === 400) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    } else if (event.detail.xhr.status >= 500 || event.detail.xhr.status === 0) {
      stale(`the server could not answer (HTTP ${event.detail.xhr.status}): try again`, null);
    }
  });
  document.addEventListener("htmx:afterSwap", () => {
    const region = answer();
    if (!region) { return; }
    region.classList.remove("stale", "working");
    const error = region.querySelector(".error[data-field]");
    markField(error ? error.dataset.field : null);
  });
  document.addEventListener("htmx:sendError", () => stale("the server did not answer: is simlab serve running?", null));

  // A variant is uploaded with the inputs on screen now (the form's address was the page's first one).
  document.addEventListener("submit", event => {
    if (event.target.matches("form.upload")) {
      event.target.action = window.location.pathname + window.location.search;
    }
  });

  /** Draw each chart under ``root`` from the specification the page holds (Vega-Lite), once it can be seen.

  A chart inside a closed box is drawn when the box is opened (it has no width before). */
  function drawCharts(root) {
    if (!window.vegaEmbed || !root) { return; }
    root.querySelectorAll(".vega-chart:not([data-drawn])").forEach(box => {
      if (box.closest("details:not([open])")) { return; }
      const source = box.querySelector("script[type='application/json']");
      box.dataset.drawn = "drawing";
      const target = document.createElement("div");
      target.className = "vega-target";
      box.append(target);
      const options = {
        renderer: "svg",
        actions: { export: true, source: false, compiled: false, editor: false },
        downloadFileName: box.dataset.chart,
      };
      window.vegaEmbed(target, JSON.parse(source.textContent), options)
        .then(result => {
          // A tap (a phone has no pointer to hover with) writes the mark's values under the chart.
          result.view.addEventListener("click", (event, item) => readout(box, item));
          box.dataset.drawn = "yes";
        })
        .catch(error => {
          box.dataset.drawn = "failed";
          target.textContent = `the chart could not be drawn: ${error.message}`;
        });
    });
  }
  /** The values of the mark ``item`` of a chart (its tooltip's), on a line under the chart. */
  function readout(box, item) {
    const values = item && item.tooltip;
    if (!values || typeof values !== "object") { return; }
    let line = box.querySelector(".readout");
    if (!line) {
      line = document.createElement("p");
      line.className = "readout";
      line.setAttribute("role", "status");
      box.append(line);
    }
    line.textContent = Object.entries(values).map(([name, value]) => `${name}: ${value}`).join(" · ");
  }
  document.addEventListener("DOMContentLoaded", () => drawCharts(document));
  document.addEventListener("htmx:afterSettle", () => drawCharts(answer()));
  document.addEventListener("toggle", event => { if (event.target.open) { drawCharts(event.target); } }, true);

  return { copyLink, stale, markField, drawCharts };
})();
