@echo off
rem The snapshot provider plugin of this working tree, for Pulumi.yaml's plugins.providers on Windows (see pulumi-resource-snapshot).
set "node=%~dp0..\..\node_modules\node\bin\node.exe"
if not exist "%node%" set "node=node"
"%node%" "%~dp0..\..\dist\plugin\bin\snapshot.js" %*
