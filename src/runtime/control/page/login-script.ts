/**
 * The sign-in form's script: sends the token once, in the Authorization header of
 * `POST /session` (never in a URL), and reloads: the server's answer set an HttpOnly cookie that
 * no script can read. The token is not kept anywhere.
 */
export const LOGIN_SCRIPT = `(function () {
  'use strict';
  var form = document.getElementById('login');
  var input = document.getElementById('token');
  var error = document.getElementById('login-error');
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    var token = input.value.trim();
    input.value = '';
    fetch('/session', {
      method: 'POST',
      headers: { 'authorization': 'Bearer ' + token, 'content-type': 'application/json', 'x-quanta-request': '1' },
      body: '{}',
      credentials: 'same-origin'
    }).then(function (res) {
      if (res.ok) { location.reload(); return; }
      error.textContent = res.status === 401 ? 'Wrong token.' : 'Sign-in failed: HTTP ' + res.status;
    }, function (e) { error.textContent = 'Sign-in failed: ' + e.message; });
  });
})();
`;
