//! Mombasa (eggertspiele, 2015) as a pure reducer. Work in progress (issue 7).
