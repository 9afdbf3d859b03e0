// The site's plotly.js: the core (scatter, the axes, sliders, menus, annotations, shapes, hover) and the two
// other traces the figures draw. Each more trace costs every page load: the official cartesian bundle,
// with eight more, takes over twice the CPU to start.
'use strict';

var Plotly = require('plotly.js/lib/core');

Plotly.register([require('plotly.js/lib/bar'), require('plotly.js/lib/heatmap')]);

module.exports = Plotly;
