//! Clans of Caledonia (Karma Games, 2017) as a pure reducer. Work in progress (issue 6).
